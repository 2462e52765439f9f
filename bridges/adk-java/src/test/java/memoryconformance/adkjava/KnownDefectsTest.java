package memoryconformance.adkjava;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.InMemoryMemoryService;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.Part;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/**
 * Standalone reproductions, in ADK Java's own API and without the bridge, of the two defects of
 * google-adk 1.8.0's {@code InMemoryMemoryService} that the kit's {@code adk-java} gate declares
 * as known violations (bridges/src/adk_java.rs). Each test asserts the defect as it is today, so
 * it fails, and says so, once a release fixes it: then the gate's known violation is to be
 * removed. Run by {@code bridges/tests/worked_example_adk_java.rs}.
 */
class KnownDefectsTest {
  private static final long MONDAY_MILLIS = Instant.parse("2026-01-05T09:00:00Z").toEpochMilli();

  private static Session monday(Event... events) {
    return Session.builder("s-1").appName("support").userId("u-42").events(List.of(events)).build();
  }

  private static Event text(String text) {
    return Event.builder().id("e-1").author("user").timestamp(MONDAY_MILLIS)
        .content(Content.fromParts(Part.fromText(text))).build();
  }

  /**
   * adk-java issue 1464: {@code searchMemory} calls {@code part.text().get()} on every part, so
   * one stored tool call makes every later search of that user throw, even one that would
   * match only the text event beside it (the kit's rules {@code index.text_only},
   * {@code index.empty_events}, {@code replace.readd_with_nothing},
   * {@code replace.readd_as_declared}, {@code model.random_ops}).
   */
  @Test
  void aStoredToolCallMakesEverySearchThrow() {
    BaseMemoryService memory = new InMemoryMemoryService();
    Event call = Event.builder().id("e-2").author("model").timestamp(MONDAY_MILLIS)
        .content(Content.builder().role("model").parts(List.of(Part.builder()
            .functionCall(FunctionCall.builder().name("lookup").args(Map.of("order", "4417")).build())
            .build())).build())
        .build();
    memory.addSessionToMemory(monday(text("My favourite coffee is a flat white."), call)).blockingAwait();

    assertThrows(NoSuchElementException.class,
        () -> memory.searchMemory("support", "u-42", "coffee").blockingGet());
  }

  /**
   * adk-java PR 1468: the entry's timestamp is {@code Instant.ofEpochSecond} of the event's epoch
   * milliseconds, so an event of 5 January 2026 comes back dated in the year 57983 (the kit's rule
   * {@code result.fidelity}).
   */
  @Test
  void anEntryTimestampIsTheEventsMillisecondsReadAsSeconds() {
    BaseMemoryService memory = new InMemoryMemoryService();
    memory.addSessionToMemory(monday(text("My favourite coffee is a flat white."))).blockingAwait();

    List<MemoryEntry> found = memory.searchMemory("support", "u-42", "coffee").blockingGet().memories();
    assertEquals(1, found.size());
    assertEquals(Instant.ofEpochSecond(MONDAY_MILLIS).toString(), found.get(0).timestamp());
    assertEquals("+57983-", found.get(0).timestamp().substring(0, 7));
  }
}
