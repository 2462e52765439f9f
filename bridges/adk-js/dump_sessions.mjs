// Dumps the debugging guide's worked example as ADK JS (@google/adk) really holds it.
//
// Usage: node dump_sessions.mjs OUT_DIR
//
// Builds the sessions with the package's InMemorySessionService and createEvent, and writes
// JSON.stringify(session) into OUT_DIR:
//   before.json  Monday's session under support/42
//   after.json   after the fix: the same session under support/u-42
// The sessions hold a text event, a function call, a function response that alone names order
// 4417, an inline-data part and a state value.
//
// Run with the install of bridges/install.sh (bridges/adk-js/node_modules).
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';

import {InMemorySessionService, createEvent} from '@google/adk';

function events() {
  return [
    createEvent({
      author: 'user',
      invocationId: 'inv-1',
      content: {role: 'user', parts: [{text: 'My favourite coffee is a flat white.'}]},
    }),
    createEvent({
      author: 'support_agent',
      invocationId: 'inv-1',
      content: {role: 'model', parts: [{functionCall: {name: 'get_order', args: {customer: 'me'}}}]},
    }),
    createEvent({
      author: 'support_agent',
      invocationId: 'inv-1',
      content: {
        role: 'user',
        parts: [{functionResponse: {name: 'get_order', response: {status: 'Order 4417 shipped'}}}],
      },
    }),
    createEvent({
      author: 'user',
      invocationId: 'inv-1',
      content: {
        role: 'user',
        parts: [{inlineData: {mimeType: 'text/plain', data: Buffer.from('receipt for the flat white').toString('base64')}}],
      },
    }),
  ];
}

async function write(service, userId) {
  const session = await service.createSession({
    appName: 'support',
    userId,
    sessionId: 'monday',
    state: {loyalty_tier: 'gold'},
  });
  for (const event of events()) {
    await service.appendEvent({session, event});
  }
  return service.getSession({appName: 'support', userId, sessionId: 'monday'});
}

const out = process.argv[2];
if (!out || process.argv.length !== 3) {
  console.error('usage: node dump_sessions.mjs OUT_DIR');
  process.exit(2);
}
mkdirSync(out, {recursive: true});
const service = new InMemorySessionService();
for (const [name, userId] of [['before', '42'], ['after', 'u-42']]) {
  const session = await write(service, userId);
  writeFileSync(join(out, `${name}.json`), JSON.stringify(session));
}
