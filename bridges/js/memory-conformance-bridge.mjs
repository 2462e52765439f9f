// Serve any ADK JS memory service as a memory-conformance bridge (bridge protocol 2, and 1 for a
// kit that speaks only that; see docs/bridge-protocol.md). A bridge is then a few lines:
//
//   import {InMemoryMemoryService, createEvent, createSession} from '@google/adk';
//   import {serve} from 'memory-conformance-bridge';
//
//   await serve(() => new InMemoryMemoryService(), {
//     backend: 'adk-js', version: '@google/adk 2.0.0', createEvent, createSession,
//   });
//
// `serve` reads one JSON request per line on stdin and answers each on stdout; everything the
// service logs goes to stderr. Each `open` makes a new service from the factory on the store's
// storage (`reset` a fresh one); a factory that declares a parameter, `(storage) => ...`, is
// given the store's own directory, empty at the store's first `open` and removed by `drop`, so a
// durable service reached by a reopen or a second instance sees what an earlier one wrote. `add`
// converts the kit's session JSON with the package's own createSession and createEvent
// (timestamps in milliseconds, parts in camelCase) and calls addSessionToMemory; `search` calls
// searchMemory and converts the entries back. A failure of one request is answered with
// `ok: false`; a line that is not a request ends the bridge with exit code 2. With a `clear`
// option, `(storage) => ...` emptying what a store holds, a dropped store is cleared and its
// storage given to the next store instead of removed, and `hello` says so (`reuses_stores`).
import {mkdtempSync, mkdirSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {createInterface} from 'node:readline';

export const PROTOCOL_VERSION = 2;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 instant as ADK JS's epoch milliseconds (sub-millisecond time is cut). */
export function milliseconds(rfc3339) {
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
  throw new Error(`the service returned a part the kit's model has no kind for: ${JSON.stringify(part)}`);
}

function contentIn(content) {
  if (content === null || content === undefined) return undefined;
  return {role: content.role ?? undefined, parts: (content.parts ?? []).map(partIn)};
}

/** The kit's event JSON as an ADK JS event, made with the package's own constructor. */
export function eventFromKit(event, {createEvent}) {
  return createEvent({
    id: event.id,
    author: event.author,
    timestamp: milliseconds(event.timestamp),
    content: contentIn(event.content),
  });
}

/** The kit's session JSON as an ADK JS session, made with the package's own constructors. */
export function sessionFromKit(session, options) {
  const {createSession} = options;
  const events = session.events.map((event) => eventFromKit(event, options));
  return createSession({
    id: session.id,
    appName: session.app_name,
    userId: session.user_id,
    state: session.state ?? {},
    events,
  });
}

/** An ADK JS memory entry as the kit's entry JSON, its fields as they come. */
export function entryToKit(entry) {
  const content = {role: entry.content.role ?? null, parts: (entry.content.parts ?? []).map(partOut)};
  const out = {content, author: entry.author, timestamp: entry.timestamp};
  if (entry.id != null) out.id = entry.id;
  return out;
}

/** A call the service does not have: answered `ok: false` with `unsupported: true`. */
export class Unsupported extends Error {}

/**
 * Answers protocol requests on stdin until it ends. `factory()` makes a fresh, empty memory
 * service with ADK JS's addSessionToMemory and searchMemory (`factory(storage)` one on the
 * store's storage directory, see above); `options` holds the `backend` name
 * and `version` that `hello` answers with, the package's `createEvent` and `createSession`, and
 * optionally `clear(storage)` (sync or async), which empties a dropped store's storage for the
 * next store to reuse (docs/store-per-case.md); a store it fails to clear is removed as without it.
 */
export async function serve(factory, options) {
  const {backend, version, clear} = options;
  const protocol = process.stdout;
  // stdout carries the protocol only: whatever the service logs goes to stderr.
  console.log = console.info = console.debug = (...args) => console.error(...args);
  // Every store: its storage directory (made only for a factory that takes it: making and
  // removing one costs more than a call) and its open services, by instance number.
  const takesStorage = factory.length >= 1;
  const stores = new Map();
  const root = mkdtempSync(join(tmpdir(), 'memory-conformance-bridge-'));
  let made = 0;
  // The storage of dropped stores, cleared, for the next stores to reuse (with `clear` only).
  const cleared = [];
  const create = (name) => {
    const reused = cleared.pop();
    if (reused !== undefined) {
      const store = {storage: reused, instances: new Map(), opened: 0};
      stores.set(name, store);
      return store;
    }
    made += 1;
    const storage = join(root, `store-${made}`);
    if (takesStorage) mkdirSync(storage);
    const store = {storage, instances: new Map(), opened: 0};
    stores.set(name, store);
    return store;
  };
  const open = (store) => {
    store.opened += 1;
    store.instances.set(store.opened, takesStorage ? factory(store.storage) : factory());
    return store.opened;
  };
  const drop = async (name) => {
    const store = stores.get(name);
    stores.delete(name);
    if (!store) return;
    if (clear) {
      try {
        store.instances.clear();
        await clear(store.storage);
        cleared.push(store.storage);
        return;
      } catch (err) {
        console.error(err?.stack ?? String(err));
      }
    }
    if (takesStorage) rmSync(store.storage, {recursive: true, force: true});
  };
  const service = (name, instance) => {
    const store = stores.get(name);
    if (!store) throw new Error(`no store ${JSON.stringify(name)}: open (or reset) it first`);
    // v1 requests name no instance: the store's only (or first) one.
    const number = instance ?? Math.min(...store.instances.keys());
    const memory = store.instances.get(number);
    if (!memory) throw new Error(`store ${JSON.stringify(name)} has no open instance ${number}: open it first`);
    return memory;
  };
  const handle = async (request) => {
    const {op, store} = request;
    // A kit that speaks only version 1 is answered in version 1, which it accepts.
    if (op === 'hello') {
      const reuse = clear ? {reuses_stores: true} : {};
      return {protocol: Math.min(request.protocol ?? 1, PROTOCOL_VERSION), backend, version, ...reuse};
    }
    if (op === 'reset') {
      await drop(store);
      open(create(store));
      return {};
    }
    if (op === 'open') return {instance: open(stores.get(store) ?? create(store))};
    if (op === 'close') {
      stores.get(store)?.instances.delete(request.instance);
      return {};
    }
    if (op === 'drop') {
      await drop(store);
      return {};
    }
    const memory = service(store, request.instance);
    if (op === 'add') {
      await memory.addSessionToMemory(sessionFromKit(request.session, options));
      return {};
    }
    if (op === 'search') {
      // ADK JS's searchMemory takes no limit: a search with one is unsupported.
      if (request.limit != null) throw new Unsupported('searchMemory takes no limit');
      const found = await memory.searchMemory({appName: request.app_name, userId: request.user_id, query: request.query});
      return {memories: found.memories.map(entryToKit)};
    }
    // ADK's optional calls (add_events, add_memory, delete): ADK JS 2.0's in-memory service has none.
    const optional = {add_events: 'addEventsToMemory', add_memory: 'addMemory', delete: 'deleteMemory'}[op];
    if (optional && typeof memory[optional] !== 'function') {
      throw new Unsupported(`${memory.constructor?.name ?? 'the service'} has no ${optional}`);
    }
    if (op === 'add_events') {
      const events = request.events.map((event) => eventFromKit(event, options));
      await memory.addEventsToMemory({appName: request.app_name, userId: request.user_id, sessionId: request.session_id ?? undefined, events});
      return {};
    }
    if (op === 'add_memory') {
      await memory.addMemory({appName: request.app_name, userId: request.user_id, memories: request.memories});
      return {};
    }
    if (op === 'delete') {
      await memory.deleteMemory({appName: request.app_name, userId: request.user_id, memoryId: request.memory_id});
      return {};
    }
    throw new Unsupported(`unknown op ${JSON.stringify(op)}`);
  };
  for await (const line of createInterface({input: process.stdin, crlfDelay: Infinity})) {
    let request;
    try {
      request = JSON.parse(line);
      if (typeof request.id !== 'number') throw new Error('no numeric id');
    } catch (err) {
      console.error(`${backend} bridge: not a protocol request (${err.message}): ${JSON.stringify(line)}`);
      process.exit(2);
    }
    let answer;
    try {
      answer = JSON.stringify({id: request.id, ok: true, ...(await handle(request))});
    } catch (err) {
      if (err instanceof Unsupported) {
        answer = JSON.stringify({id: request.id, ok: false, unsupported: true, error: err.message});
      } else {
        console.error(err?.stack ?? String(err));
        answer = JSON.stringify({id: request.id, ok: false, error: `${err?.name ?? 'Error'}: ${err?.message ?? err}`});
      }
    }
    protocol.write(answer + '\n');
  }
  rmSync(root, {recursive: true, force: true});
}

/**
 * The kit's deterministic embedder (`hashed-N`), the same vectors bit for bit as
 * `memory_conformance::embed::HashedEmbedder` (docs/vector-search.md): NFC, lowercase, words of
 * letters and numbers, each word a feature of weight 1 and each trigram of `<word>` one of
 * weight 1/2, hashed with 64-bit FNV-1a into `dimensions` signed slots, normalised, `f32`.
 */
export class HashedEmbedder {
  constructor(dimensions = 256) {
    this.dimensions = Math.max(1, Math.trunc(dimensions));
    this.name = `hashed-${this.dimensions}`;
  }

  static words(text) {
    return text.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  }

  static fnv1a(bytes) {
    let value = 0xcbf29ce484222325n;
    for (const byte of bytes) value = ((value ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
    return value;
  }

  /** The vector of one text, as numbers holding `f32` values. */
  embedOne(text) {
    const sums = new Array(this.dimensions).fill(0);
    const encoder = new TextEncoder();
    const add = (feature, weight) => {
      const value = HashedEmbedder.fnv1a(encoder.encode(feature));
      const slot = Number(value % BigInt(this.dimensions));
      sums[slot] += value >> 63n ? -weight : weight;
    };
    for (const word of HashedEmbedder.words(text)) {
      add(`w:${word}`, 1);
      const padded = ['<', ...word, '>'];
      for (let i = 0; i + 3 <= padded.length; i += 1) add(`t:${padded.slice(i, i + 3).join('')}`, 0.5);
    }
    const length = Math.sqrt(sums.reduce((total, x) => total + x * x, 0));
    if (length === 0) return sums.map(() => 0);
    return sums.map((x) => Math.fround(x / length));
  }

  /** One vector per text, in order. */
  embed(texts) {
    return texts.map((text) => this.embedOne(text));
  }
}
