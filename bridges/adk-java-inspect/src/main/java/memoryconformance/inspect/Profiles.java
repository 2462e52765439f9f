package memoryconformance.inspect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a query token can match, under each profile's rules (the names of the kit's profiles):
 * the guide's (and ADK Java's and ADK JS's) in-memory index keeps runs of ASCII letters and a
 * query token must be one whole; ADK Python's finds a token with any word character. Tokens are
 * the query split on whitespace, lowercased.
 *
 * <pre>{@code
 * Profiles.deadTokens("coffee preference? 4417", "reference")  // [preference?, 4417]
 * Profiles.shape("Where's order 4417?")  // <letters:5>'<letters:1> <letters:5> <digits:4>?
 * }</pre>
 */
public final class Profiles {
  private static final Pattern LETTERS = Pattern.compile("[a-z]+");
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]");
  private static final Map<String, Predicate<String>> RULES = Map.of(
      "reference", t -> LETTERS.matcher(t).matches(),
      "adk-java", t -> LETTERS.matcher(t).matches(),
      "adk-js", t -> LETTERS.matcher(t).matches(),
      "adk-python", t -> WORD.matcher(t).find());
  private static final Pattern RUNS = Pattern.compile("\\p{L}+|\\p{N}+|.", Pattern.DOTALL);

  private Profiles() {}

  /** The query's tokens: split on whitespace, lowercased. */
  public static List<String> tokens(String query) {
    List<String> out = new ArrayList<>();
    for (String token : query.toLowerCase(Locale.ROOT).split("\\s+")) {
      if (!token.isEmpty()) {
        out.add(token);
      }
    }
    return out;
  }

  /**
   * The tokens of {@code query} that can never match under {@code profile}.
   *
   * @throws IllegalArgumentException naming the known profiles, for an unknown one
   */
  public static List<String> deadTokens(String query, String profile) {
    Predicate<String> canMatch = rules(profile);
    return tokens(query).stream().filter(canMatch.negate()).toList();
  }

  static Predicate<String> rules(String profile) {
    Predicate<String> rules = RULES.get(profile);
    if (rules == null) {
      throw new IllegalArgumentException("unknown profile \"" + profile + "\": expected one of "
          + String.join(", ", RULES.keySet().stream().sorted().toList()));
    }
    return rules;
  }

  /**
   * {@code text} with each run of letters or digits replaced by its class and length, spaces
   * and ASCII punctuation kept, any other character as {@code *} (the kit's
   * {@code inspect::shape}).
   */
  public static String shape(String text) {
    StringBuilder out = new StringBuilder();
    Matcher runs = RUNS.matcher(text);
    while (runs.find()) {
      String run = runs.group();
      int first = run.codePointAt(0);
      if (Character.isLetter(first)) {
        out.append("<letters:").append(run.codePointCount(0, run.length())).append('>');
      } else if (Character.isDigit(first)) {
        out.append("<digits:").append(run.codePointCount(0, run.length())).append('>');
      } else if (first == ' ' || (first > ' ' && first < 127)) {
        out.append(run);
      } else {
        out.append('*');
      }
    }
    return out.toString();
  }
}
