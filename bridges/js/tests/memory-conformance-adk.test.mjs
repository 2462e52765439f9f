// memory-conformance-bridge/adk behaves exactly like the service it wraps (results and
// rejections are the wrapped service's own) and says what went wrong.
// Run: node --test bridges/js/tests/
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {InspectingMemoryService, deadTokens, memoryTracePlugin, shape} from '../memory-conformance-adk.mjs';

const lines = () => {
  const seen = [];
  return {seen, logger: {info: (l) => seen.push(['info', l]), warn: (l) => seen.push(['warn', l])}};
};

test('a rejection is the wrapped service\'s own, logged without its message', async () => {
  const error = new TypeError('backend down: secret query text');
  const {seen, logger} = lines();
  const memory = new InspectingMemoryService({searchMemory: async () => { throw error; }}, {logger});
  await assert.rejects(memory.searchMemory({appName: 'a', userId: 'u', query: 'q w'}),
      (thrown) => thrown === error);
  assert.equal(seen.length, 1);
  assert.equal(seen[0][0], 'warn');
  assert.match(seen[0][1], /^memory\.search\.failed key=a\/u ms=[0-9.]+ error=TypeError$/);
});

test('a result is the wrapped service\'s own, and other methods reach it', async () => {
  const found = {memories: [{content: {parts: [{text: 'x'}]}}]};
  const delegate = {
    searchMemory: async () => found,
    addEventsToMemory: async (request) => ['delta', request],
    extra: 'own',
  };
  const {seen, logger} = lines();
  const memory = new InspectingMemoryService(delegate, {logger});
  assert.equal(await memory.searchMemory({appName: 'a', userId: 'u', query: 'coffee?'}), found);
  assert.match(seen[0][1], /^memory\.search key=a\/u tokens=1 dead=1 hits=1 ms=[0-9.]+$/);
  assert.deepEqual(await memory.addEventsToMemory({userId: 'u'}), ['delta', {userId: 'u'}]);
  assert.equal(memory.extra, 'own');
});

test('an unknown profile is refused naming the known ones', () => {
  const message = 'unknown profile "adk-jss": expected one of adk-js, adk-python, reference';
  assert.throws(() => new InspectingMemoryService({}, {profile: 'adk-jss'}), {message});
  assert.throws(() => memoryTracePlugin(class {}, {profile: 'adk-jss'}), {message});
});

test('dead tokens and shapes follow the kit\'s rules', () => {
  assert.deepEqual(deadTokens('Coffee coffee? 4417 café tea'), ['coffee?', '4417', 'café']);
  assert.deepEqual(deadTokens('Coffee coffee? ? 4417', 'adk-python'), ['?']);
  assert.equal(shape('Where\'s order 4417?'), '<letters:5>\'<letters:1> <letters:5> <digits:4>?');
  assert.equal(shape('café'), '<letters:4>');
});
