package example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.adk.events.Event;
import com.google.adk.memory.BaseMemoryService;
import com.google.adk.memory.InMemoryMemoryService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import java.util.List;
import memoryconformance.inspect.InspectingMemoryService;
import memoryconformance.inspect.MemoryTracePlugin;
import org.junit.jupiter.api.Test;

/**
 * The debugging guide's test that keeps the key fix fixed ("Tests that keep it fixed"), through
 * the released decorator around ADK Java's InMemoryMemoryService: the decorator forwards every
 * call unchanged, so the guide's three assertions hold through it.
 */
class RecallsAcrossSessionsTest {
  @Test
  void recallsAcrossSessionsUnderSameKey() {
    InMemoryMemoryService inMemory = new InMemoryMemoryService();
    InspectingMemoryService memory = new InspectingMemoryService(inMemory);
    assertSame(inMemory, memory.delegate());
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

  @Test
  void thePluginIsAnAdkPlugin() {
    com.google.adk.plugins.BasePlugin plugin = new MemoryTracePlugin("reference");
    assertEquals("memory_trace", plugin.getName());
  }
}
