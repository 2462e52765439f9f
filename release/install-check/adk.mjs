// The npm package as a team installs it (`npm install memory-conformance-bridge-*.tgz
// @google/adk`): the debugging guide's worked example through ADK JS's own Runner, LlmAgent
// and InMemoryMemoryService, behind the package's decorator and trace plugin, with a scripted
// model (no network). Monday is remembered under the wrong key, then under the right one; the
// lines the decorator and the plugin log say which. Run by release/install-check.sh from a
// fresh project; prints what it checked, exits non-zero on the first difference.
import assert from 'node:assert/strict';

import {
  BaseLlm, BasePlugin, InMemoryMemoryService, InMemorySessionService, LlmAgent, LOAD_MEMORY,
  Runner,
} from '@google/adk';
import {PROTOCOL_VERSION, serve} from 'memory-conformance-bridge';
import {InspectingMemoryService, memoryTracePlugin} from 'memory-conformance-bridge/adk';

assert.equal(typeof serve, 'function', 'memory-conformance-bridge exports serve');
assert.equal(PROTOCOL_VERSION, 2, 'memory-conformance-bridge speaks bridge protocol 2');

const APP = 'support';
const seen = [];
const logger = {info: (line) => seen.push(line), warn: (line) => seen.push(line)};

/** Calls load_memory with the guide's query for the Thursday question, answers in text. */
class ScriptedModel extends BaseLlm {
  constructor() {
    super({model: 'scripted'});
  }
  async *generateContentAsync(request) {
    const parts = request.contents.at(-1)?.parts ?? [];
    const answer = parts.find((p) => p.functionResponse)?.functionResponse;
    if (answer) {
      const found = (answer.response?.memories ?? []).length;
      yield {content: {role: 'model', parts: [{text: found ? 'A flat white.' : 'I don\'t know.'}]}};
    } else if (parts.some((p) => p.text === 'What coffee do I usually get?')) {
      const functionCall = {name: 'load_memory', args: {query: 'coffee preference?'}};
      yield {content: {role: 'model', parts: [{functionCall}]}};
    } else {
      yield {content: {role: 'model', parts: [{text: 'Noted.'}]}};
    }
  }
  async connect() {
    throw new Error('the scripted model does not stream');
  }
}

const sessions = new InMemorySessionService();
const memory = new InspectingMemoryService(new InMemoryMemoryService(), {logger});
const runner = new Runner({
  appName: APP, sessionService: sessions, memoryService: memory,
  agent: new LlmAgent({
    name: 'support_agent', model: new ScriptedModel(), instruction: 'Help the customer.',
    tools: [LOAD_MEMORY],
  }),
  plugins: [memoryTracePlugin(BasePlugin, {logger})],
});

async function chat(userId, sessionId, text) {
  await sessions.createSession({appName: APP, userId, sessionId});
  const newMessage = {role: 'user', parts: [{text}]};
  for await (const _ of runner.runAsync({userId, sessionId, newMessage})) { /* drain */ }
  return sessions.getSession({appName: APP, userId, sessionId});
}

function expectLine(pattern, what) {
  const line = seen.find((l) => pattern.test(l));
  assert.ok(line, `no log line ${pattern} (${what}); the lines were:\n${seen.join('\n')}`);
  console.log(`  ${what}: ${line}`);
}

// Monday written under the numeric id, Thursday asked as u-42: nothing found.
const monday = await chat('u-42', 'monday', 'My favourite coffee is a flat white.');
await memory.addSessionToMemory({...monday, userId: '42'});
await chat('u-42', 'thursday', 'What coffee do I usually get?');
expectLine(/^memory\.write key=support\/42 session=monday events=2 textEvents=2 ms=/,
    'the decorator logs the write under the wrong key');
expectLine(/^memory\.query key=support\/u-42 call=\S+ invocation=\S+ tokens=2 dead=1 /,
    'the plugin logs load_memory\'s query, one token dead');
expectLine(/^memory\.search key=support\/u-42 tokens=2 dead=1 hits=0 ms=/,
    'the decorator logs the search finding nothing');

// The key fixed: the same question finds Monday.
seen.length = 0;
await memory.addSessionToMemory(monday);
await chat('u-42', 'friday', 'What coffee do I usually get?');
expectLine(/^memory\.search key=support\/u-42 tokens=2 dead=1 hits=1 ms=/,
    'with the key fixed, the search finds Monday');
const friday = await sessions.getSession({appName: APP, userId: 'u-42', sessionId: 'friday'});
const said = friday.events.flatMap((e) => e.content?.parts ?? []).map((p) => p.text).filter(Boolean);
assert.equal(said.at(-1), 'A flat white.', 'the agent answers from memory');
console.log('  the agent answers from memory: A flat white.');
