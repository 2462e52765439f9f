// ADK JS's InMemoryMemoryService behind the memory-conformance bridge protocol, version 1.
//
// Reads one JSON request per line on stdin and writes one JSON answer per line on stdout (see
// docs/bridge-protocol.md). Sessions arrive in the kit's JSON model and are converted to the
// package's own objects (createSession, createEvent: timestamps in milliseconds, parts in
// camelCase); entries go back in the kit's model with the package's fields as they come.
//
// Run by the kit with `node bridges/adk-js/bridge.mjs` (see bridges/install.sh).
import {readFileSync} from 'node:fs';
import {createInterface} from 'node:readline';

import {InMemoryMemoryService, createEvent, createSession} from '@google/adk';

const PROTOCOL_VERSION = 1;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

// stdout carries the protocol only: whatever the package logs goes to stderr.
const protocol = process.stdout;
console.log = console.info = console.debug = (...args) => console.error(...args);

const packageVersion = JSON.parse(
  readFileSync(new URL('./node_modules/@google/adk/package.json', import.meta.url), 'utf8'),
).version;

/** An RFC 3339 instant as ADK JS's epoch milliseconds (sub-millisecond time is cut). */
function milliseconds(rfc3339) {
  const match = RFC3339.exec(rfc3339);
  if (!match) throw new Error(`timestamp ${JSON.stringify(rfc3339)} is not RFC 3339`);
  const [, year, month, day, hour, minute, second, fraction = '', offset] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, '0').slice(0, 3)));
  let millis = date.getTime();
  if (offset !== 'Z') {
    const sign = offset[0] === '+' ? 1 : -1;
    millis -= sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60000;
  }
  return millis;
}

function partIn(part) {
  if ('text' in part) return {text: part.text};
  if ('function_call' in part) return {functionCall: {name: part.function_call.name, args: part.function_call.args}};
  if ('function_response' in part) {
    return {functionResponse: {name: part.function_response.name, response: part.function_response.response}};
  }
  if ('inline_data' in part) return {inlineData: {mimeType: part.inline_data.mime_type, data: part.inline_data.data}};
  throw new Error(`a part of unknown kind: ${Object.keys(part)}`);
}

function partOut(part) {
  if (part.text !== undefined) return {text: part.text};
  if (part.functionCall) return {function_call: {name: part.functionCall.name, args: part.functionCall.args ?? null}};
  if (part.functionResponse) {
    return {function_response: {name: part.functionResponse.name, response: part.functionResponse.response ?? null}};
  }
  if (part.inlineData) return {inline_data: {mime_type: part.inlineData.mimeType, data: part.inlineData.data}};
  throw new Error(`the package returned a part the kit's model has no kind for: ${JSON.stringify(part)}`);
}

function contentIn(content) {
  if (content === null || content === undefined) return undefined;
  return {role: content.role ?? undefined, parts: (content.parts ?? []).map(partIn)};
}

function contentOut(content) {
  return {role: content.role ?? null, parts: (content.parts ?? []).map(partOut)};
}

function sessionIn(session) {
  const events = session.events.map((event) =>
    createEvent({
      id: event.id,
      author: event.author,
      timestamp: milliseconds(event.timestamp),
      content: contentIn(event.content),
    }),
  );
  return createSession({
    id: session.id,
    appName: session.app_name,
    userId: session.user_id,
    state: session.state ?? {},
    events,
  });
}

function entryOut(entry) {
  return {content: contentOut(entry.content), author: entry.author, timestamp: entry.timestamp};
}

async function handle(stores, request) {
  const {op, store} = request;
  if (op === 'hello') {
    return {protocol: PROTOCOL_VERSION, backend: 'adk-js', version: `@google/adk ${packageVersion}`};
  }
  if (op === 'reset') {
    stores.set(store, new InMemoryMemoryService());
    return {};
  }
  if (op === 'drop') {
    stores.delete(store);
    return {};
  }
  const memory = stores.get(store);
  if (!memory) throw new Error(`no store ${JSON.stringify(store)}: reset it first`);
  if (op === 'add') {
    await memory.addSessionToMemory(sessionIn(request.session));
    return {};
  }
  if (op === 'search') {
    const found = await memory.searchMemory({appName: request.app_name, userId: request.user_id, query: request.query});
    return {memories: found.memories.map(entryOut)};
  }
  throw new Error(`unknown op ${JSON.stringify(op)}`);
}

const stores = new Map();
for await (const line of createInterface({input: process.stdin, crlfDelay: Infinity})) {
  let request;
  try {
    request = JSON.parse(line);
    if (typeof request.id !== 'number') throw new Error('no numeric id');
  } catch (err) {
    console.error(`adk-js bridge: not a protocol request (${err.message}): ${JSON.stringify(line)}`);
    process.exit(2);
  }
  let answer;
  try {
    answer = JSON.stringify({id: request.id, ok: true, ...(await handle(stores, request))});
  } catch (err) {
    console.error(err?.stack ?? String(err));
    answer = JSON.stringify({id: request.id, ok: false, error: `${err?.name ?? 'Error'}: ${err?.message ?? err}`});
  }
  protocol.write(answer + '\n');
}
