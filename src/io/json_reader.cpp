#include "io/json_reader.h"

#include <unordered_set>
#include <utility>

namespace raystream {
namespace {

// Line and column (1-based, in characters) of the 1-based byte position `byte` that nlohmann
// reports.
std::pair<std::size_t, std::size_t> line_and_column(const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++column;  // columns count characters: UTF-8 continuation bytes add none
    }
  }
  return {line, column};
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix,
// with the token it quotes ("last read: '...'") cut to a short excerpt: an unterminated string
// would otherwise be quoted whole.
std::string parse_error_reason(const std::string& what) {
  std::string reason = what;
  const std::size_t col = what.find("column ");
  const std::size_t colon = col == std::string::npos ? std::string::npos : what.find(": ", col);
  if (colon != std::string::npos) {
    reason = what.substr(colon + 2);
  } else {
    const std::size_t bracket = what.find("] ");
    if (bracket != std::string::npos) reason = what.substr(bracket + 2);
  }
  const std::string marker = "last read: '";
  const std::size_t open = reason.find(marker);
  if (open != std::string::npos) {
    const std::size_t start = open + marker.size();
    const std::size_t close = reason.rfind('\'');
    if (close != std::string::npos && close >= start) {
      reason = reason.substr(0, start) + excerpt(reason.substr(start, close - start), 40) +
               reason.substr(close);
    }
  }
  return reason;
}

// The byte offset of the first '[' or '{' nested deeper than `limit` levels (outside strings and
// comments), or npos.
std::size_t nesting_beyond(const std::string& text, int limit) {
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const std::size_t end = text.find("*/", i + 2);
      if (end == std::string::npos) return std::string::npos;
      i = end + 1;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string::npos;
}

// Thrown by the check below when arrays and objects nest deeper than kMaxJsonNesting.
struct TooDeep {};

// Finds keys that appear twice in one object (nlohmann keeps one silently), e.g. two materials
// of the same name, and stops the parse at nesting deeper than kMaxJsonNesting. Memory is linear
// in the file's size: each level keeps its keys, its last key and its element count, and the
// key path for the message is put together only when a duplicate is found. Throws DuplicateKey
// naming the key and where it is, or TooDeep.
struct DuplicateKey {
  std::string key, where;
};

class DuplicateKeyCheck {
 public:
  // Records the keys of the top-level object `ordered` ("" none), in the file's order, in `keys`.
  DuplicateKeyCheck(std::string ordered, std::vector<std::string>& keys)
      : ordered_(std::move(ordered)), keys_(&keys) {}

  bool operator()(int depth, Json::parse_event_t event, Json& parsed) {
    using Event = Json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        if (depth >= kMaxJsonNesting) throw TooDeep{};
        if (!stack_.empty()) ++stack_.back().elements;
        stack_.push_back({event == Event::array_start, 0, {}, {}});
        break;
      case Event::object_end:
      case Event::array_end:
        if (!stack_.empty()) stack_.pop_back();
        break;
      case Event::key:
        if (!stack_.empty() && parsed.is_string()) {
          Level& level = stack_.back();
          level.last_key = parsed.get<std::string>();
          if (!level.keys.insert(level.last_key).second) {
            throw DuplicateKey{excerpt(level.last_key), where()};
          }
          if (stack_.size() == 2 && !stack_[0].is_array && !stack_[1].is_array &&
              !ordered_.empty() && stack_[0].last_key == ordered_) {
            keys_->push_back(level.last_key);
          }
        }
        break;
      case Event::value:
        if (!stack_.empty()) ++stack_.back().elements;
        break;
    }
    return true;
  }

 private:
  struct Level {
    bool is_array;
    std::size_t elements;  // arrays: the elements begun so far
    std::string last_key;
    std::unordered_set<std::string> keys;
  };

  // The key path of the innermost level, e.g. "Objects[2]" ("" at the top level).
  std::string where() const {
    std::string name;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Level& parent = stack_[i];
      if (parent.is_array) {
        name += "[" + std::to_string(parent.elements - 1) + "]";
      } else {
        name += (name.empty() ? "" : ".") + excerpt(parent.last_key);
      }
    }
    return name;
  }

  std::vector<Level> stack_;
  std::string ordered_;
  std::vector<std::string>* keys_;
};

}  // namespace

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string json_type_name(const Json& j) {
  if (j.is_number_integer()) return "an integer";
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "null";
}

Json parse_json(const std::string& text, const std::string& path, const std::string& ordered_object,
                std::vector<std::string>& ordered_keys) {
  try {
    return Json::parse(text, DuplicateKeyCheck(ordered_object, ordered_keys),
                       /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const TooDeep&) {
    std::string where = path;
    const std::size_t at = nesting_beyond(text, kMaxJsonNesting);
    if (at != std::string::npos) {
      const auto [line, column] = line_and_column(text, at + 1);
      where += ":" + std::to_string(line) + ":" + std::to_string(column);
    }
    throw SceneError(where + ": arrays and objects nested more than " +
                     std::to_string(kMaxJsonNesting) +
                     " levels deep (a scene needs 4); the file is not a scene");
  } catch (const DuplicateKey& d) {
    throw SceneError(path + ": " + (d.where.empty() ? "the top level" : d.where) +
                     ": duplicate key \"" + d.key + "\" (each key may appear only once)");
  } catch (const Json::parse_error& e) {
    const auto [line, column] = line_and_column(text, e.byte);
    throw SceneError(path + ":" + std::to_string(line) + ":" + std::to_string(column) +
                     ": malformed JSON: " + parse_error_reason(e.what()));
  } catch (const Json::out_of_range& e) {
    // A number too large even for a double (e.g. 1e400); nlohmann names it but not its place.
    const std::string what = e.what();
    const std::size_t open = what.find('\'');
    const std::size_t close = what.rfind('\'');
    std::string where = path;
    if (open != std::string::npos && close > open + 1) {
      const std::size_t at = text.find(what.substr(open + 1, close - open - 1));
      if (at != std::string::npos) {
        const auto [line, column] = line_and_column(text, at + 1);
        where += ":" + std::to_string(line) + ":" + std::to_string(column);
      }
    }
    throw SceneError(where + ": number out of range: " + parse_error_reason(what));
  } catch (const Json::exception& e) {
    throw SceneError(path + ": malformed JSON: " + parse_error_reason(e.what()));
  }
}

}  // namespace raystream
