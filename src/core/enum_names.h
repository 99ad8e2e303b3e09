// Enum names written once: an enum that has names keeps them in one table in the enum's order
// (kScheduleNames for Schedule...), which its name function, the command line's parser and the
// command line's list of choices all read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace raystream {

// The name of `value` in `names`, its enum's table.
template <class Enum, std::size_t N>
constexpr const char* enum_name(Enum value, const char* const (&names)[N]) {
  return names[static_cast<std::size_t>(value)];
}

// The value `name` names in `names`, its enum's table; none for a name not in it.
template <class Enum, std::size_t N>
std::optional<Enum> enum_named(const std::string& name, const char* const (&names)[N]) {
  for (std::size_t k = 0; k < N; ++k)
    if (name == names[k]) return static_cast<Enum>(k);
  return std::nullopt;
}

}  // namespace raystream
