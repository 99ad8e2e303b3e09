#include "io/scene/json_reader.h"

#include <cstdint>
#include <utility>

#include "core/stop_request.h"
#include "io/files/text_lines.h"

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

// Thrown by the reader below when arrays and objects nest deeper than kMaxJsonNesting.
struct TooDeep {};

// Thrown by the reader below for a key that appears twice in one object (nlohmann keeps one
// silently), e.g. two materials of the same name: the key and where it is.
struct DuplicateKey {
  std::string key, where;
};

// Builds the document from nlohmann's SAX events, with the checks of parse_json: a key twice in
// one object, nesting deeper than kMaxJsonNesting (the parse stops there, so such a file costs
// little memory), and the keys of one top-level object recorded in the file's order. Every
// event costs constant or logarithmic time (nlohmann's callback parser, which this replaces,
// scanned the whole enclosing array after every object: 100000 objects took 5 s, 400000 87 s).
// Polls for a stop every few thousand events.
class DocumentReader {
 public:
  // Records the keys of the top-level object `ordered` ("" none), in the file's order, in `keys`.
  DocumentReader(Json& root, std::string ordered, std::vector<std::string>& keys)
      : root_(root), ordered_(std::move(ordered)), keys_(&keys) {}

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(Json::number_integer_t v) { return value(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return value(v); }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return value(v); }
  bool string(Json::string_t& v) { return value(std::move(v)); }
  bool binary(Json::binary_t&) { return value(nullptr); }  // not in JSON text

  bool start_object(std::size_t) { return open(Json::object(), false); }
  bool start_array(std::size_t) { return open(Json::array(), true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(Json::string_t& k) {
    tick();
    Level& level = stack_.back();
    if (level.value->contains(k)) throw DuplicateKey{excerpt(k), where()};
    level.last_key = k;
    if (stack_.size() == 2 && !stack_[0].is_array && !stack_[1].is_array && !ordered_.empty() &&
        stack_[0].last_key == ordered_) {
      keys_->push_back(k);
    }
    slot_ = &(*level.value)[k];
    return true;
  }

  // nlohmann's own exception, rethrown with its type (parse_error, out_of_range).
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  struct Level {
    Json* value;
    bool is_array;
    std::size_t elements;  // arrays: the elements begun so far
    std::string last_key;
  };

  void tick() {
    if ((++events_ & 4095u) == 0) poll_stop();
  }

  // Where the next value goes: the root, the end of the enclosing array, or the slot of the
  // object's last key.
  template <class Value>
  Json* place(Value&& v) {
    tick();
    if (stack_.empty()) {
      root_ = Json(std::forward<Value>(v));
      return &root_;
    }
    Level& level = stack_.back();
    if (level.is_array) {
      ++level.elements;
      level.value->push_back(Json(std::forward<Value>(v)));
      return &level.value->back();
    }
    *slot_ = Json(std::forward<Value>(v));
    return slot_;
  }

  template <class Value>
  bool value(Value&& v) {
    place(std::forward<Value>(v));
    return true;
  }

  bool open(Json&& empty, bool is_array) {
    if (static_cast<int>(stack_.size()) >= kMaxJsonNesting) throw TooDeep{};
    // A container's address stays put while it is filled: its parent grows only after it ends.
    Json* container = place(std::move(empty));
    stack_.push_back({container, is_array, 0, {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

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

  Json& root_;
  std::vector<Level> stack_;
  Json* slot_ = nullptr;
  std::uint64_t events_ = 0;
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
  refuse_utf16(text, path);
  try {
    Json doc;
    DocumentReader reader(doc, ordered_object, ordered_keys);
    Json::sax_parse(text, &reader, Json::input_format_t::json, /*strict=*/true,
                    /*ignore_comments=*/true);
    return doc;
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
