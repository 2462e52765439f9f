package memoryconformance.adkjava;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.InMemoryMemoryService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The debugging guide's worked example (the forgotten coffee order), its three-assertion test as
 * the guide writes it, against ADK Java's real {@code InMemoryMemoryService}: Monday's fact is
 * found under the key it was written with ({@code support/u-42}), not under the writing job's
 * {@code support/42}, and not by the query {@code coffee?} (punctuation stays in the query
 * word). Run by {@code bridges/tests/worked_example_adk_java.rs}.
 */
class WorkedExampleTest {
  @Test
  void recallsAcrossSessionsUnderSameKey() {
    BaseMemoryService memory = new InMemoryMemoryService();
    Session monday = Session.builder("s-1").appName("support").userId("u-42")
        .events(List.of(Event.builder().author("user")
            .content(Content.fromParts(Part.fromText("My favourite coffee is a flat white.")))
            .build()))
        .build();
    memory.addSessionToMemory(monday).blockingAwait();

    assertEquals(1, memory.searchMemory("support", "u-42", "coffee").blockingGet().memories().size());
    assertEquals(0, memory.searchMemory("support", "42", "coffee").blockingGet().memories().size());
    assertEquals(0, memory.searchMemory("support", "u-42", "coffee?").blockingGet().memories().size());
  }

  /** The guide's step 3: the write under {@code support/42} is invisible to {@code u-42}. */
  @Test
  void aWriteUnderTheWrongKeyIsNotFound() {
    BaseMemoryService memory = new InMemoryMemoryService();
    Session monday = Session.builder("s-1").appName("support").userId("42")
        .events(List.of(Event.builder().author("user")
            .content(Content.fromParts(Part.fromText("My favourite coffee is a flat white.")))
            .build()))
        .build();
    memory.addSessionToMemory(monday).blockingAwait();

    assertEquals(0, memory.searchMemory("support", "u-42", "coffee").blockingGet().memories().size());
    assertEquals(1, memory.searchMemory("support", "42", "coffee").blockingGet().memories().size());
  }
}
