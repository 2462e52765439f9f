// ADK JS's InMemoryMemoryService behind the memory-conformance bridge protocol. Entries go back
// with the package's fields as they come. Run by the kit with `node bridges/adk-js/bridge.mjs`
// (see bridges/install.sh).
import {readFileSync} from 'node:fs';

import {InMemoryMemoryService, createEvent, createSession} from '@google/adk';

import {serve} from '../js/memory-conformance-bridge.mjs';

const adk = JSON.parse(readFileSync(new URL('./node_modules/@google/adk/package.json', import.meta.url), 'utf8'));

await serve(() => new InMemoryMemoryService(), {
  backend: 'adk-js',
  version: `@google/adk ${adk.version}`,
  createEvent,
  createSession,
});
