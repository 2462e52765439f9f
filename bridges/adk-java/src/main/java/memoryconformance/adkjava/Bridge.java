package memoryconformance.adkjava;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.InMemoryMemoryService;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * ADK Java's {@code InMemoryMemoryService} behind the memory-conformance bridge protocol
 * (version 2, and 1 for a kit that speaks only that; see docs/bridge-protocol.md).
 *
 * <p>One JSON request per line on stdin, one answer per line on stdout; everything else the JVM
 * or the package prints goes to stderr. Each {@code open} makes a new service from the factory
 * (an in-memory service has no storage, so every instance starts empty); {@code reset} makes a
 * fresh store with one instance. ADK Java 1.8's {@code BaseMemoryService} has only the two
 * calls, so {@code add_events}, {@code add_memory}, {@code delete} and a {@code search} with a
 * {@code limit} are answered {@code "unsupported": true}. A failing request is answered {@code ok:
 * false} with the exception's class and message; a line that is not a request ends the bridge
 * with exit code 2.
 *
 * <p>Run by the kit as {@code java @target/bridge.args memoryconformance.adkjava.Bridge} (see
 * bridges/install.sh).
 */
public final class Bridge {
  /** The newest protocol version this bridge speaks. */
  static final int PROTOCOL_VERSION = 2;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A call the service does not have: answered {@code ok: false} with {@code unsupported}. */
  static final class Unsupported extends RuntimeException {
    Unsupported(String message) {
      super(message);
    }
  }

  /** A store: its open instances by number. */
  private static final class Store {
    final Map<Integer, BaseMemoryService> instances = new TreeMap<>();
    int opened;
  }

  private final Supplier<BaseMemoryService> factory;
  private final String backend;
  private final String version;
  private final Map<String, Store> stores = new HashMap<>();

  Bridge(Supplier<BaseMemoryService> factory, String backend, String version) {
    this.factory = factory;
    this.backend = backend;
    this.version = version;
  }

  public static void main(String[] args) throws IOException {
    // stdout carries the protocol only: whatever else is printed goes to stderr.
    PrintStream protocol =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);
    Bridge bridge = new Bridge(InMemoryMemoryService::new, "adk-java", "google-adk " + adkVersion());
    System.exit(bridge.serve(System.in, protocol));
  }

  /** The version of google-adk this bridge was built against (the pom's one pin). */
  static String adkVersion() throws IOException {
    Properties properties = new Properties();
    try (InputStream in =
        Bridge.class.getResourceAsStream("/memoryconformance-adk-java.properties")) {
      if (in == null) {
        throw new IOException("memoryconformance-adk-java.properties is missing: rebuild with mvn");
      }
      properties.load(in);
    }
    return properties.getProperty("adk.version");
  }

  /** Answers requests until stdin ends (exit code 0) or a line is not a request (2). */
  int serve(InputStream input, OutputStream output) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(output, false, StandardCharsets.UTF_8);
    String line;
    while ((line = lines.readLine()) != null) {
      JsonNode request;
      try {
        request = JSON.readTree(line);
        if (request == null || !request.path("id").isIntegralNumber()) {
          throw new IllegalArgumentException("no numeric id");
        }
      } catch (IOException | IllegalArgumentException e) {
        System.err.println(
            backend + " bridge: not a protocol request (" + e.getMessage() + "): " + line);
        return 2;
      }
      ObjectNode answer = JSON.createObjectNode();
      answer.set("id", request.get("id"));
      try {
        ObjectNode fields = handle(request);
        answer.put("ok", true);
        answer.setAll(fields);
      } catch (Unsupported e) {
        answer.put("ok", false);
        answer.put("unsupported", true);
        answer.put("error", e.getMessage());
      } catch (RuntimeException e) {
        e.printStackTrace();
        answer.put("ok", false);
        answer.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      out.print(JSON.writeValueAsString(answer));
      out.print('\n');
      out.flush();
    }
    return 0;
  }

  private ObjectNode handle(JsonNode request) {
    String op = request.path("op").asText();
    String store = request.path("store").asText(null);
    ObjectNode answer = JSON.createObjectNode();
    switch (op) {
      case "hello":
        // A kit that speaks only version 1 is answered in version 1, which it accepts.
        answer.put("protocol", Math.min(request.path("protocol").asInt(1), PROTOCOL_VERSION));
        answer.put("backend", backend);
        answer.put("version", version);
        return answer;
      case "reset":
        stores.remove(store);
        open(create(store));
        return answer;
      case "open":
        answer.put("instance", open(stores.containsKey(store) ? stores.get(store) : create(store)));
        return answer;
      case "close":
        if (stores.containsKey(store)) {
          stores.get(store).instances.remove(request.path("instance").asInt());
        }
        return answer;
      case "drop":
        stores.remove(store);
        return answer;
      default:
        break;
    }
    BaseMemoryService memory = service(store, request.get("instance"));
    switch (op) {
      case "add":
        memory.addSessionToMemory(Convert.session(request.get("session"))).blockingAwait();
        return answer;
      case "search":
        if (request.hasNonNull("limit")) {
          throw new Unsupported("BaseMemoryService.searchMemory takes no limit");
        }
        answer.set(
            "memories",
            Convert.entries(
                memory
                    .searchMemory(
                        request.path("app_name").asText(),
                        request.path("user_id").asText(),
                        request.path("query").asText())
                    .blockingGet()));
        return answer;
      case "add_events":
      case "add_memory":
      case "delete":
        throw new Unsupported(
            memory.getClass().getSimpleName() + " (" + version + ") has no " + op);
      default:
        throw new Unsupported("unknown op \"" + op + "\"");
    }
  }

  private Store create(String name) {
    Store store = new Store();
    stores.put(name, store);
    return store;
  }

  private int open(Store store) {
    store.opened += 1;
    store.instances.put(store.opened, factory.get());
    return store.opened;
  }

  private BaseMemoryService service(String name, JsonNode instance) {
    Store store = stores.get(name);
    if (store == null) {
      throw new IllegalStateException("no store \"" + name + "\": open (or reset) it first");
    }
    // Version 1 requests name no instance: the store's first open one.
    Integer number =
        instance == null || instance.isNull()
            ? store.instances.keySet().stream().findFirst().orElse(0)
            : instance.asInt();
    BaseMemoryService memory = store.instances.get(number);
    if (memory == null) {
      throw new IllegalStateException(
          "store \"" + name + "\" has no open instance " + number + ": open it first");
    }
    return memory;
  }
}
