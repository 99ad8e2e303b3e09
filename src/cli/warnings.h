// The warnings of a load as they are printed: a file of 100000 unknown keys gave 100000 lines.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace raystream {

// How many warnings of one kind are printed before the rest are counted.
inline constexpr std::size_t kWarningsPerKind = 5;

// `warnings` in their order, each kind at most `per_kind` times, then for each kind with more one
// line that counts them: "scene.json: 99995 more warnings like the above (unknown key, ignored)".
// A warning's kind is its file (the text before the first ": ") and what it says last (the text
// after the last ": "), so the key paths of "unknown key, ignored" differ and the kind does not.
std::vector<std::string> capped_warnings(const std::vector<std::string>& warnings,
                                         std::size_t per_kind = kWarningsPerKind);

}  // namespace raystream
