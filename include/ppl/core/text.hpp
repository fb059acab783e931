#pragma once
// Text helpers for messages: the "did you mean" suggestion for a misspelt name, and a one-line form of text a user
// typed (a message echoes keys and values, and an error must stay one line on stderr).
#include <cstdio>
#include <string>
#include <vector>

namespace ppl {

// The candidate closest to `word` by case-insensitive optimal string alignment distance, within a limit that grows
// with the length (0 up to 3 letters, where only swapped letters count: "jbo" for "job"; 1 up to 5; 2 beyond:
// "neutralise" for "neutralize"); "" when none is that close or `word` is itself a candidate. Ties: the first.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// `text` with control characters (bytes below 0x20 and 0x7f) written as \n, \r, \t or \xNN: a key or value holding
// a newline cannot split an error message. Inline: ppl::error applies it to every message, in every target.
inline std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace ppl
