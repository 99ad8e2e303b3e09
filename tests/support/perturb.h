// A change to a value of any type the settings and the scene hold, for the tests that check a
// list of fields: each field of the list is changed in turn and the test sees whether that shows.
#pragma once

#include <functional>
#include <glm/glm.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "scene/scene.h"

namespace raystream::test {

template <class T>
void perturb(T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    value = !value;
  } else if constexpr (std::is_enum_v<T>) {
    value = static_cast<T>(static_cast<std::underlying_type_t<T>>(value) + 1);
  } else if constexpr (std::is_arithmetic_v<T>) {
    value = static_cast<T>(value + 1);
  } else if constexpr (std::is_pointer_v<T>) {
    static std::remove_const_t<std::remove_pointer_t<T>> other{};
    value = &other;
  } else {
    static_assert(sizeof(T) == 0, "no perturb for this type: add one");
  }
}
inline void perturb(glm::vec2& v) {
  v.x += 1.0f;
}
inline void perturb(glm::vec3& v) {
  v.x += 1.0f;
}
inline void perturb(glm::vec4& v) {
  v.x += 1.0f;
}
inline void perturb(TextureSlot& slot) {
  slot.texture += 1;
}
inline void perturb(std::string& s) {
  s += "x";
}
template <class T>
void perturb(std::vector<T>& v) {
  v.emplace_back();
}
template <class R, class... A>
void perturb(std::function<R(A...)>& f) {
  f = [](A...) { return R(); };
}

}  // namespace raystream::test
