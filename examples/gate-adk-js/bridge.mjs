// ADK JS's InMemoryMemoryService as a memory-conformance bridge: the whole bridge.
import {InMemoryMemoryService, createEvent, createSession} from '@google/adk';
import {serve} from 'memory-conformance-bridge';

await serve(() => new InMemoryMemoryService(), {
  backend: 'adk-js-team', version: '@google/adk 2.0.0', createEvent, createSession,
});
