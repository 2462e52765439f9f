// The shipped ADK Java decorator's added time per call: google-adk's InMemoryMemoryService
// searched and written directly and through InspectingMemoryService (an SLF4J logger that
// formats each line and drops it), on the worked example's session.
//
// Usage (after bash bridges/install.sh), from the repository root:
//   java -cp "bridges/adk-java-inspect/target/classes:$(cat bridges/adk-java/target/classpath.txt)" \
//     benches/adk/DecoratorOverhead.java [CALLS]
// Prints, per call kind, the median over 7 rounds of the mean time per call, bare and decorated
// (after 3 rounds of warm-up).
import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.InMemoryMemoryService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import memoryconformance.inspect.InspectingMemoryService;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

public class DecoratorOverhead {
  static int sink;

  static final class Formatting extends LegacyAbstractLogger {
    @Override protected String getFullyQualifiedCallerName() { return null; }
    @Override protected void handleNormalizedLoggingCall(
        Level level, Marker marker, String pattern, Object[] args, Throwable thrown) {
      sink += MessageFormatter.basicArrayFormat(pattern, args).length();
    }
    @Override public boolean isTraceEnabled() { return false; }
    @Override public boolean isDebugEnabled() { return false; }
    @Override public boolean isInfoEnabled() { return true; }
    @Override public boolean isWarnEnabled() { return true; }
    @Override public boolean isErrorEnabled() { return true; }
  }

  static final Session SESSION = Session.builder("s-0").appName("support").userId("u-42")
      .events(List.of(
          Event.builder().author("user").timestamp(1)
              .content(Content.fromParts(Part.fromText("My favourite coffee is a flat white.")))
              .build(),
          Event.builder().author("model").timestamp(2)
              .content(Content.fromParts(Part.fromText("Noted."))).build()))
      .build();

  static double perCall(BaseMemoryService service, String kind, int calls) {
    long started = System.nanoTime();
    for (int n = 0; n < calls; n++) {
      if (kind.equals("search")) {
        sink += service.searchMemory("support", "u-42", "coffee preference?").blockingGet()
            .memories().size();
      } else {
        service.addSessionToMemory(SESSION).blockingAwait();
      }
    }
    return (System.nanoTime() - started) / 1000.0 / calls;
  }

  public static void main(String[] args) {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
    for (String kind : List.of("write", "search")) {
      List<Double> bare = new ArrayList<>();
      List<Double> decorated = new ArrayList<>();
      for (int round = 0; round < 10; round++) {
        InMemoryMemoryService memory = new InMemoryMemoryService();
        memory.addSessionToMemory(SESSION).blockingAwait();
        double b = perCall(memory, kind, calls);
        memory = new InMemoryMemoryService();
        memory.addSessionToMemory(SESSION).blockingAwait();
        double d = perCall(
            new InspectingMemoryService(memory, new Formatting(), false, "reference"), kind, calls);
        if (round >= 3) {
          bare.add(b);
          decorated.add(d);
        }
      }
      Collections.sort(bare);
      Collections.sort(decorated);
      double b = bare.get(bare.size() / 2);
      double d = decorated.get(decorated.size() / 2);
      System.out.printf("%s: bare %.2f us/call, decorated %.2f us/call, added %.2f us/call%n",
          kind, b, d, d - b);
    }
  }
}
