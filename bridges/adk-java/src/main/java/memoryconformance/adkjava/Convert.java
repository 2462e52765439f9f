package memoryconformance.adkjava;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.adk.events.Event;
import com.google.adk.memory.MemoryEntry;
import com.google.adk.memory.SearchMemoryResponse;
import com.google.adk.sessions.Session;
import com.google.genai.types.Blob;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.FunctionResponse;
import com.google.genai.types.Part;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kit's JSON model (docs/bridge-protocol.md, "The data model on the wire") to ADK Java's
 * types and back, faithfully: timestamps in as ADK Java's epoch milliseconds (sub-millisecond
 * time cut), parts through {@code com.google.genai.types}, entries out with the package's
 * fields as they come (its timestamp string verbatim).
 */
final class Convert {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  private Convert() {}

  /** The kit's session JSON as an ADK Java session, built with the package's own builders. */
  static Session session(JsonNode session) {
    List<Event> events = new ArrayList<>();
    for (JsonNode event : session.path("events")) {
      events.add(event(event));
    }
    Map<String, Object> state = new ConcurrentHashMap<>();
    if (session.hasNonNull("state")) {
      state.putAll(JSON.convertValue(session.get("state"), OBJECT));
    }
    return Session.builder(session.path("id").asText())
        .appName(session.path("app_name").asText())
        .userId(session.path("user_id").asText())
        .state(state)
        .events(events)
        .build();
  }

  /** The kit's event JSON as an ADK Java event. */
  static Event event(JsonNode event) {
    Event.Builder builder =
        Event.builder()
            .id(event.path("id").asText())
            .author(event.path("author").asText())
            .timestamp(milliseconds(event.path("timestamp").asText()));
    if (event.hasNonNull("content")) {
      builder.content(content(event.get("content")));
    }
    return builder.build();
  }

  /** An RFC 3339 instant as epoch milliseconds, sub-millisecond time cut (toward the past). */
  static long milliseconds(String rfc3339) {
    return OffsetDateTime.parse(rfc3339).toInstant().toEpochMilli();
  }

  static Content content(JsonNode content) {
    List<Part> parts = new ArrayList<>();
    for (JsonNode part : content.path("parts")) {
      parts.add(part(part));
    }
    Content.Builder builder = Content.builder().parts(parts);
    if (content.hasNonNull("role")) {
      builder.role(content.get("role").asText());
    }
    return builder.build();
  }

  static Part part(JsonNode part) {
    if (part.has("text")) {
      return Part.fromText(part.get("text").asText());
    }
    if (part.has("function_call")) {
      JsonNode call = part.get("function_call");
      FunctionCall.Builder builder = FunctionCall.builder().name(call.path("name").asText());
      if (call.hasNonNull("args")) {
        builder.args(JSON.convertValue(call.get("args"), OBJECT));
      }
      return Part.builder().functionCall(builder.build()).build();
    }
    if (part.has("function_response")) {
      JsonNode response = part.get("function_response");
      FunctionResponse.Builder builder =
          FunctionResponse.builder().name(response.path("name").asText());
      if (response.hasNonNull("response")) {
        builder.response(JSON.convertValue(response.get("response"), OBJECT));
      }
      return Part.builder().functionResponse(builder.build()).build();
    }
    if (part.has("inline_data")) {
      JsonNode data = part.get("inline_data");
      Blob blob =
          Blob.builder()
              .mimeType(data.path("mime_type").asText())
              .data(Base64.getDecoder().decode(data.path("data").asText()))
              .build();
      return Part.builder().inlineData(blob).build();
    }
    throw new IllegalArgumentException("a part of unknown kind: " + part);
  }

  /** A search's entries as the kit's entry JSON, in the package's order. */
  static ArrayNode entries(SearchMemoryResponse response) {
    ArrayNode out = JSON.createArrayNode();
    for (MemoryEntry entry : response.memories()) {
      ObjectNode kit = out.addObject();
      kit.set("content", content(entry.content()));
      kit.put("author", entry.author());
      kit.put("timestamp", entry.timestamp());
    }
    return out;
  }

  static ObjectNode content(Content content) {
    ObjectNode kit = JSON.createObjectNode();
    kit.put("role", content.role().orElse(null));
    ArrayNode parts = kit.putArray("parts");
    for (Part part : content.parts().orElse(List.of())) {
      parts.add(part(part));
    }
    return kit;
  }

  static ObjectNode part(Part part) {
    ObjectNode kit = JSON.createObjectNode();
    if (part.text().isPresent()) {
      kit.put("text", part.text().get());
    } else if (part.functionCall().isPresent()) {
      FunctionCall call = part.functionCall().get();
      ObjectNode inner = kit.putObject("function_call");
      inner.put("name", call.name().orElse(null));
      inner.set("args", call.args().map(args -> (JsonNode) JSON.valueToTree(args)).orElse(null));
    } else if (part.functionResponse().isPresent()) {
      FunctionResponse response = part.functionResponse().get();
      ObjectNode inner = kit.putObject("function_response");
      inner.put("name", response.name().orElse(null));
      inner.set(
          "response",
          response.response().map(value -> (JsonNode) JSON.valueToTree(value)).orElse(null));
    } else if (part.inlineData().isPresent()) {
      Blob blob = part.inlineData().get();
      ObjectNode inner = kit.putObject("inline_data");
      inner.put("mime_type", blob.mimeType().orElse(null));
      inner.put("data", Base64.getEncoder().encodeToString(blob.data().orElse(new byte[0])));
    } else {
      throw new IllegalStateException(
          "the service returned a part the kit's model has no kind for: " + part);
    }
    return kit;
  }
}
