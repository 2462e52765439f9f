package memoryconformance.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.memory.InMemoryMemoryService;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.adk.tools.LoadMemoryTool;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import io.reactivex.rxjava3.core.Flowable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The debugging guide's worked example through a real ADK Java {@link Runner} (an
 * {@link LlmAgent} with {@link LoadMemoryTool}, a scripted model, {@link InMemorySessionService}
 * and {@link InMemoryMemoryService}) behind the shipped {@link InspectingMemoryService} and
 * {@link MemoryTracePlugin}: each situation writes {@code <adk.logs>/<situation>/app.log}, which
 * {@code cli/tests/adk_situations.rs} gives to {@code memory-conformance diagnose --log}.
 * {@code random-content} logs without the content flag; its {@code secrets.json} lists the
 * words that must not be in its log.
 *
 * <p>Monday's chat has no tool call here: in google-adk 1.8.0, once a session holding a
 * function call is in {@code InMemoryMemoryService}, every search under its key fails with
 * {@code NoSuchElementException} ({@code part.text().get()} on a part without text;
 * google/adk-java#1464, fixed by #1465 after 1.8.0). So key-fixed's "Where's order 4417?" is
 * check 3's miss (4417 is nowhere), not check 4's.
 */
class WorkedExampleRunnerTest {
  static final String APP = "support";
  static final String MONDAY = "My favourite coffee is a flat white.";
  static final String THURSDAY = "What coffee do I usually get?";
  static final Map<String, String> QUERIES = Map.of(
      THURSDAY, "coffee preference?",
      "Where's order 4417?", "Where's order 4417?");

  /** ADK Java's name for load_memory (the name of its method). */
  static final String MEMORY_TOOL = new LoadMemoryTool().name();

  /** Calls load_memory for a question it knows, answers from what came back, else notes. */
  static final class ScriptedModel extends BaseLlm {
    private final boolean callsMemory;
    private final Map<String, String> queries;

    ScriptedModel(boolean callsMemory, Map<String, String> queries) {
      super("scripted");
      this.callsMemory = callsMemory;
      this.queries = queries;
    }

    @Override
    public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
      List<Part> parts = request.contents().get(request.contents().size() - 1).parts()
          .orElse(List.of());
      Optional<FunctionResponse> answer = parts.stream()
          .flatMap(p -> p.functionResponse().stream()).findFirst();
      if (answer.isPresent()) {
        Object memories = answer.get().response().orElse(Map.of()).get("memories");
        boolean found = memories instanceof List<?> list && !list.isEmpty();
        return Flowable.just(text(found ? "You usually get the drink you told me about."
            : "I don't know what coffee you usually get."));
      }
      String said = parts.stream().flatMap(p -> p.text().stream())
          .collect(Collectors.joining(" "));
      if (queries.containsKey(said) && callsMemory) {
        return Flowable.just(LlmResponse.builder().content(Content.builder().role("model")
            .parts(List.of(Part.builder().functionCall(FunctionCall.builder()
                .name(MEMORY_TOOL).args(Map.of("query", queries.get(said))).build())
                .build()))
            .build()).build());
      }
      return Flowable.just(text(queries.containsKey(said)
          ? "I don't know what coffee you usually get." : "Noted."));
    }

    @Override
    public BaseLlmConnection connect(LlmRequest request) {
      throw new UnsupportedOperationException("the scripted model does not stream");
    }

    static LlmResponse text(String value) {
      return LlmResponse.builder()
          .content(Content.builder().role("model").parts(List.of(Part.fromText(value))).build())
          .build();
    }
  }

  /** The application: one runner, the decorator around ADK's memory, the plugin. */
  static final class App {
    final InMemorySessionService sessions = new InMemorySessionService();
    final InspectingMemoryService memory;
    final Runner runner;

    App(String situation, boolean callsMemory, boolean logContent, Map<String, String> queries)
        throws IOException {
      Path folder = Path.of(System.getProperty("adk.logs", "target/adk-logs"), situation);
      Files.createDirectories(folder);
      Path log = folder.resolve("app.log");
      Files.deleteIfExists(log);
      FileLogger logger = new FileLogger(log);
      memory = new InspectingMemoryService(new InMemoryMemoryService(), logger, logContent,
          "reference");
      LlmAgent agent = LlmAgent.builder().name("support_agent")
          .model(new ScriptedModel(callsMemory, queries))
          .instruction("Help the customer.").tools(new LoadMemoryTool()).build();
      runner = new Runner(agent, APP, new InMemoryArtifactService(), sessions, memory,
          List.of(new MemoryTracePlugin("reference", logger, logContent)));
    }

    App(String situation) throws IOException {
      this(situation, true, true, QUERIES);
    }

    Session chat(String userId, String sessionId, String... messages) {
      sessions.createSession(APP, userId, new ConcurrentHashMap<>(), sessionId).blockingGet();
      for (String message : messages) {
        runner.runAsync(userId, sessionId, Content.fromParts(Part.fromText(message)))
            .blockingSubscribe();
      }
      return sessions.getSession(APP, userId, sessionId, Optional.empty()).blockingGet();
    }

    /** The back-office job writing a session to memory under {@code userId}. */
    void remember(Session session, String userId) {
      memory.addSessionToMemory(Session.builder(session.id()).appName(session.appName())
          .userId(userId).events(session.events()).build()).blockingAwait();
    }
  }

  @Test
  void wrongKey() throws IOException {
    App app = new App("wrong-key");
    app.remember(app.chat("u-42", "monday", MONDAY), "42");
    app.chat("u-42", "thursday", THURSDAY);
  }

  @Test
  void mondayOtherKey() throws IOException {
    App app = new App("monday-other-key");
    app.remember(app.chat("42", "monday", MONDAY), "42");
    app.chat("u-42", "thursday", THURSDAY);
  }

  @Test
  void keyFixed() throws IOException {
    App app = new App("key-fixed");
    app.remember(app.chat("u-42", "monday", MONDAY), "u-42");
    app.chat("u-42", "thursday", THURSDAY, "Where's order 4417?");
  }

  @Test
  void neverWritten() throws IOException {
    App app = new App("never-written");
    app.chat("u-42", "monday", MONDAY);
    app.chat("u-42", "thursday", THURSDAY);
  }

  @Test
  void noLoadMemory() throws IOException {
    App app = new App("no-load-memory", false, true, QUERIES);
    app.remember(app.chat("u-42", "monday", MONDAY), "u-42");
    app.chat("u-42", "thursday", THURSDAY);
  }

  /** wrong-key with random words stored and asked, logged without the content flag. */
  @Test
  void randomContent() throws IOException {
    SecureRandom random = new SecureRandom();
    String[] words = new String[3];
    for (int i = 0; i < words.length; i++) {
      StringBuilder word = new StringBuilder();
      for (int n = 8 + random.nextInt(5); n > 0; n--) {
        word.append((char) ('a' + random.nextInt(26)));
      }
      words[i] = word.toString();
    }
    String question = "What do I usually drink?";
    String query = words[2] + " " + words[0];
    App app = new App("random-content", true, false, Map.of(question, query));
    app.remember(app.chat("u-42", "monday",
        "My favourite drink is " + words[0] + " from " + words[1] + "."), "42");
    app.chat("u-42", "thursday", question);
    Path folder = Path.of(System.getProperty("adk.logs", "target/adk-logs"), "random-content");
    Files.writeString(folder.resolve("secrets.json"), "{\"query\": \"" + query
        + "\", \"words\": [\"" + String.join("\", \"", words) + "\"]}");
    String log = Files.readString(folder.resolve("app.log"));
    assertFalse(log.contains(words[0]) || log.contains(words[1]) || log.contains(words[2]), log);
    assertEquals(3, log.lines().count(), log);
  }
}
