// The shipped ADK JS decorator's added time per call: @google/adk's InMemoryMemoryService
// searched and written directly and through InspectingMemoryService (a logger that builds each
// line and drops it), on the worked example's session.
//
// Usage: node benches/adk/decorator_overhead.mjs [CALLS]   (after bash bridges/install.sh)
// Prints, per call kind, the median over 7 rounds of the mean time per call, bare and decorated.
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../bridges/adk-js/package.json'));
const {InMemoryMemoryService} = await import(require.resolve('@google/adk'));
const {InspectingMemoryService} = await import('../../bridges/js/memory-conformance-adk.mjs');

const calls = Number(process.argv[2] ?? 5000);
const logger = {info: (line) => line.length, warn: (line) => line.length};
const session = {
  id: 's-0', appName: 'support', userId: 'u-42', state: {}, lastUpdateTime: 0, events: [
    {author: 'user', timestamp: 1, content: {role: 'user', parts: [{text: 'My favourite coffee is a flat white.'}]}},
    {author: 'model', timestamp: 2, content: {role: 'model', parts: [{text: 'Noted.'}]}},
  ],
};
const request = {appName: 'support', userId: 'u-42', query: 'coffee preference?'};

async function perCall(service, kind) {
  const started = performance.now();
  for (let n = 0; n < calls; n++) {
    if (kind === 'search') await service.searchMemory(request);
    else await service.addSessionToMemory(session);
  }
  return (performance.now() - started) / calls * 1000;
}

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
for (const kind of ['write', 'search']) {
  const bare = [];
  const decorated = [];
  for (let round = 0; round < 7; round++) {
    let memory = new InMemoryMemoryService();
    await memory.addSessionToMemory(session);
    bare.push(await perCall(memory, kind));
    memory = new InMemoryMemoryService();
    await memory.addSessionToMemory(session);
    decorated.push(await perCall(new InspectingMemoryService(memory, {logger}), kind));
  }
  const [b, d] = [median(bare), median(decorated)];
  console.log(`${kind}: bare ${b.toFixed(2)} us/call, decorated ${d.toFixed(2)} us/call, ` +
      `added ${(d - b).toFixed(2)} us/call`);
}
