// The debugging guide's inspecting memory service and memory trace plugin for ADK JS
// (@google/adk), in the lines `memory-conformance diagnose --log` reads:
//
//   memory.write key=support/42 session=monday events=4 textEvents=2 ms=0.031
//   memory.search key=support/u-42 tokens=2 dead=1 hits=0 ms=0.012
//   memory.query key=support/u-42 call=... invocation=... tokens=2 dead=1 shapes=[...] ...
//
// Keys, session ids, counts and milliseconds only: the query text, the dead tokens by name and
// the stored text are logged only with `logContent: true` (for development: they often hold
// personal data); without it the query's tokens appear as shapes (`<letters:10>?`).
//
// Lines go to `logger.info` / `logger.warn` (default: `console`), each prefixed by nothing: give
// a logger of your own (pino, winston, or `{info: (line) => ..., warn: ...}`) to add time stamps.
// No dependency on @google/adk: the plugin is made from the BasePlugin class you pass, so it is
// the one your Runner knows.
//
//   const memoryService = new InspectingMemoryService(new InMemoryMemoryService());
//   const runner = new Runner({..., memoryService,
//     plugins: [memoryTracePlugin(BasePlugin, {profile: 'adk-js'})]});

const LETTERS = /^[a-z]+$/;

/** When a query token can match, under each profile's rules (the names of the kit's
 * profiles): the guide's and ADK JS's in-memory index keeps runs of ASCII letters, and a query
 * token must be one whole; ADK Python's finds a token with any word character. */
export const PROFILES = Object.freeze({
  'reference': (token) => LETTERS.test(token),
  'adk-js': (token) => LETTERS.test(token),
  'adk-python': (token) => /[\p{L}\p{N}_]/u.test(token),
});

const queryTokens = (query) => query.toLowerCase().split(/\s+/).filter((t) => t !== '');

function rulesOf(profile) {
  const rules = PROFILES[profile];
  if (!rules) {
    throw new Error(`unknown profile ${JSON.stringify(profile)}: expected one of ` +
        Object.keys(PROFILES).sort().join(', '));
  }
  return rules;
}

/** The tokens of `query` (split on whitespace, lowercased) that can never match under
 * `profile`, one of PROFILES. `deadTokens('coffee preference? 4417')` is
 * `['preference?', '4417']`. */
export function deadTokens(query, profile = 'reference') {
  const canMatch = rulesOf(profile);
  return queryTokens(query).filter((t) => !canMatch(t));
}

/** `text` with each run of letters or digits replaced by its class and length, spaces and
 * ASCII punctuation kept, any other character as `*` (the kit's `inspect::shape`):
 * `shape("Where's order 4417?")` is `<letters:5>'<letters:1> <letters:5> <digits:4>?`. */
export function shape(text) {
  return text.replace(/\p{L}+|\p{N}+|[^ \p{L}\p{N}!-/:-@[-`{-~]/gu, (run) => {
    if (/^\p{L}/u.test(run)) return `<letters:${[...run].length}>`;
    if (/^\p{N}/u.test(run)) return `<digits:${[...run].length}>`;
    return '*';
  });
}

const now = () => performance.now();
const ms = (started) => Math.round((now() - started) * 1000) / 1000;
const texts = (events) => events.flatMap(
    (e) => (e.content?.parts ?? []).filter((p) => p.text).map((p) => p.text));
const errorName = (error) => error?.constructor?.name ?? typeof error;

/** Wraps any ADK JS memory service: every call is forwarded unchanged (result, rejection) and
 * logged, `memory.write` / `memory.search` through `logger.info`, `memory.*.failed` through
 * `logger.warn` with the error's class. Other methods of the wrapped service are forwarded. */
export class InspectingMemoryService {
  constructor(delegate, {logger = console, logContent = false, profile = 'reference'} = {}) {
    rulesOf(profile);
    this.delegate = delegate;
    this.logger = logger;
    this.logContent = logContent;
    this.profile = profile;
    // Methods beyond the interface's two (addEventsToMemory, ...) reach the wrapped service.
    return new Proxy(this, {
      get: (target, name, receiver) => name in target ? Reflect.get(target, name, receiver) :
          typeof delegate[name] === 'function' ? delegate[name].bind(delegate) : delegate[name],
    });
  }

  async addSessionToMemory(session) {
    const key = `${session.appName}/${session.userId}`;
    const events = session.events ?? [];
    const textEvents = events.filter((e) => (e.content?.parts ?? []).some((p) => p.text)).length;
    const started = now();
    let result;
    try {
      result = await this.delegate.addSessionToMemory(session);
    } catch (error) {
      this.logger.warn(`memory.write.failed key=${key} session=${session.id} ms=${ms(started)} ` +
          `error=${errorName(error)}`);
      throw error;
    }
    const content = this.logContent ? ` texts=${JSON.stringify(texts(events))}` : '';
    this.logger.info(`memory.write key=${key} session=${session.id} events=${events.length} ` +
        `textEvents=${textEvents} ms=${ms(started)}${content}`);
    return result;
  }

  async searchMemory(request) {
    const key = `${request.appName}/${request.userId}`;
    const started = now();
    let found;
    try {
      found = await this.delegate.searchMemory(request);
    } catch (error) {
      this.logger.warn(`memory.search.failed key=${key} ms=${ms(started)} error=${errorName(error)}`);
      throw error;
    }
    const elapsed = ms(started);
    const query = String(request.query ?? '');
    this.logger.info(`memory.search key=${key} tokens=${queryTokens(query).length} ` +
        `dead=${deadTokens(query, this.profile).length} hits=${found.memories.length} ms=${elapsed}`);
    return found;
  }
}

/** A plugin (a subclass of the BasePlugin you pass, @google/adk's) logging `memory.query`
 * before every `load_memory` call: the key, the function call and invocation ids, the query's
 * token count and its dead tokens under `profile` (one of PROFILES: the rules of the memory
 * service behind the runner). With `logContent: true` the line carries the query and the dead
 * tokens by name (`q=... dead=[...]`, the guide's plugin); otherwise counts and shapes only. */
export function memoryTracePlugin(BasePlugin, {
  profile = 'reference', logger = console, logContent = false, name = 'memory_trace',
} = {}) {
  rulesOf(profile);
  class MemoryTracePlugin extends BasePlugin {
    async beforeToolCallback({tool, toolArgs, toolContext}) {
      if (tool.name !== 'load_memory') return undefined;
      const query = String(toolArgs?.query ?? '');
      const dead = deadTokens(query, profile);
      const appName = toolContext.invocationContext?.appName;
      const ids = `key=${appName}/${toolContext.userId} call=${toolContext.functionCallId} ` +
          `invocation=${toolContext.invocationId}`;
      if (logContent) {
        logger.info(`memory.query ${ids} q=${query} dead=[${dead.join(', ')}]`);
      } else {
        logger.info(`memory.query ${ids} tokens=${queryTokens(query).length} dead=${dead.length} ` +
            `shapes=[${queryTokens(query).map(shape).join(', ')}] ` +
            `dead_shapes=[${dead.map(shape).join(', ')}]`);
      }
      return undefined;
    }
  }
  return new MemoryTracePlugin(name);
}
