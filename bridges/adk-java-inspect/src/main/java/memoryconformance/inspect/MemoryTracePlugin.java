package memoryconformance.inspect;

import com.google.adk.plugins.BasePlugin;
import com.google.adk.tools.BaseTool;
import com.google.adk.tools.LoadMemoryTool;
import com.google.adk.tools.ToolContext;
import io.reactivex.rxjava3.core.Maybe;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The debugging guide's trace plugin: logs {@code memory.query} before every
 * {@code load_memory} call (ADK Java's {@link LoadMemoryTool}, named {@code loadMemory}), with the key, the function call and invocation ids, the query's
 * token count and its dead tokens under the profile the user names (the rules of the memory
 * service behind the runner, see {@link Profiles}). With {@code logContent} the line carries the
 * query and the dead tokens by name ({@code q=... dead=[...]}, the guide's plugin); otherwise
 * their counts and shapes only.
 *
 * <pre>{@code
 * new Runner(agent, "support", artifacts, sessions, memory, List.of(new MemoryTracePlugin("adk-java")));
 * }</pre>
 */
public final class MemoryTracePlugin extends BasePlugin {
  /** The memory tool's names: ADK Java's {@link LoadMemoryTool} is {@code loadMemory}. */
  private static final Set<String> NAMES = Set.of("load_memory", "loadMemory");

  private final Logger log;
  private final boolean logContent;
  private final String profile;

  /** Logs to the logger {@code memory}, no content, dead tokens under {@code profile}. */
  public MemoryTracePlugin(String profile) {
    this(profile, LoggerFactory.getLogger("memory"), false);
  }

  /**
   * Logs to {@code log}, the query text too when {@code logContent}.
   *
   * @throws IllegalArgumentException for an unknown profile
   */
  public MemoryTracePlugin(String profile, Logger log, boolean logContent) {
    super("memory_trace");
    Profiles.rules(profile);
    this.profile = profile;
    this.log = log;
    this.logContent = logContent;
  }

  @Override
  public Maybe<Map<String, Object>> beforeToolCallback(
      BaseTool tool, Map<String, Object> toolArgs, ToolContext toolContext) {
    if (!(tool instanceof LoadMemoryTool) && !NAMES.contains(tool.name())) {
      return Maybe.empty();
    }
    String query = String.valueOf(toolArgs.getOrDefault("query", ""));
    List<String> dead = Profiles.deadTokens(query, profile);
    String ids = "key=" + toolContext.invocationContext().appName() + "/"
        + toolContext.invocationContext().userId()
        + " call=" + toolContext.functionCallId().orElse("")
        + " invocation=" + toolContext.invocationId();
    if (logContent) {
      log.info("memory.query {} q={} dead=[{}]", ids, query, String.join(", ", dead));
    } else {
      List<String> tokens = Profiles.tokens(query);
      log.info("memory.query {} tokens={} dead={} shapes=[{}] dead_shapes=[{}]", ids,
          tokens.size(), dead.size(),
          tokens.stream().map(Profiles::shape).collect(Collectors.joining(", ")),
          dead.stream().map(Profiles::shape).collect(Collectors.joining(", ")));
    }
    return Maybe.empty();
  }
}
