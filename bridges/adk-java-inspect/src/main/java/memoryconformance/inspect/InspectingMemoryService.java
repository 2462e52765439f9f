package memoryconformance.inspect;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.SearchMemoryResponse;
import com.google.adk.sessions.Session;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Single;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The debugging guide's decorator: wraps any {@link BaseMemoryService}, forwards every call
 * unchanged (result, error) and logs it through SLF4J, by default to the logger {@code memory},
 * in the lines {@code memory-conformance diagnose --log} reads:
 *
 * <pre>
 * memory.write key=support/42 session=monday events=2 textEvents=2 ms=0.031
 * memory.search key=support/u-42 tokens=2 dead=1 hits=0 ms=0.012
 * </pre>
 *
 * <p>Keys, session ids, counts and milliseconds only; the stored text ({@code texts=[...]})
 * only with {@code logContent} (for development: it often holds personal data). Failures are
 * logged as {@code memory.write.failed} / {@code memory.search.failed} at WARN with the error's
 * class. Dead tokens are counted under the named profile (see {@link Profiles}).
 *
 * <pre>{@code
 * BaseMemoryService memory = new InspectingMemoryService(new InMemoryMemoryService());
 * }</pre>
 */
public final class InspectingMemoryService implements BaseMemoryService {
  private final BaseMemoryService delegate;
  private final Logger log;
  private final boolean logContent;
  private final String profile;

  /** Wraps {@code delegate}: the logger {@code memory}, no content, the reference's rules. */
  public InspectingMemoryService(BaseMemoryService delegate) {
    this(delegate, LoggerFactory.getLogger("memory"), false, "reference");
  }

  /**
   * Wraps {@code delegate}, logging to {@code log}, the stored text too when {@code logContent},
   * dead tokens counted under {@code profile}.
   *
   * @throws IllegalArgumentException for an unknown profile
   */
  public InspectingMemoryService(
      BaseMemoryService delegate, Logger log, boolean logContent, String profile) {
    Profiles.rules(profile);
    this.delegate = delegate;
    this.log = log;
    this.logContent = logContent;
    this.profile = profile;
  }

  /** The wrapped service. */
  public BaseMemoryService delegate() {
    return delegate;
  }

  @Override
  public Completable addSessionToMemory(Session session) {
    String key = session.appName() + "/" + session.userId();
    List<Event> events = session.events();
    List<String> texts = events.stream()
        .flatMap(e -> e.content().flatMap(c -> c.parts()).orElse(List.of()).stream())
        .flatMap(p -> p.text().stream())
        .filter(t -> !t.isEmpty())
        .toList();
    long textEvents = events.stream()
        .filter(e -> e.content().flatMap(c -> c.parts()).orElse(List.of()).stream()
            .anyMatch(p -> p.text().filter(t -> !t.isEmpty()).isPresent()))
        .count();
    return Completable.defer(() -> {
      long started = System.nanoTime();
      return delegate.addSessionToMemory(session)
          .doOnComplete(() -> log.info("memory.write key={} session={} events={} textEvents={}"
                  + " ms={}{}", key, session.id(), events.size(), textEvents, ms(started),
              logContent ? " texts=" + json(texts) : ""))
          .doOnError(error -> log.warn("memory.write.failed key={} session={} ms={} error={}",
              key, session.id(), ms(started), error.getClass().getSimpleName()));
    });
  }

  @Override
  public Single<SearchMemoryResponse> searchMemory(String appName, String userId, String query) {
    String key = appName + "/" + userId;
    return Single.defer(() -> {
      long started = System.nanoTime();
      return delegate.searchMemory(appName, userId, query)
          .doOnSuccess(found -> {
            String elapsed = ms(started);
            if (log.isInfoEnabled()) {
              log.info("memory.search key={} tokens={} dead={} hits={} ms={}", key,
                  Profiles.tokens(query).size(), Profiles.deadTokens(query, profile).size(),
                  found.memories().size(), elapsed);
            }
          })
          .doOnError(error -> log.warn("memory.search.failed key={} ms={} error={}", key,
              ms(started), error.getClass().getSimpleName()));
    });
  }

  static String ms(long started) {
    return String.valueOf((System.nanoTime() - started) / 1000 / 1000.0);
  }

  static String json(List<String> texts) {
    StringBuilder out = new StringBuilder("[");
    for (String text : texts) {
      if (out.length() > 1) {
        out.append(',');
      }
      out.append('"');
      text.codePoints().forEach(c -> {
        if (c == '"' || c == '\\') {
          out.append('\\').appendCodePoint(c);
        } else if (c < 0x20) {
          out.append(String.format("\\u%04x", c));
        } else {
          out.appendCodePoint(c);
        }
      });
      out.append('"');
    }
    return out.append(']').toString();
  }
}
