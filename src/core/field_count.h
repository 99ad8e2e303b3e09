// The number of fields of an aggregate, counted by the compiler: the most initializers T{...}
// accepts. A list of a struct's fields (the scene's fingerprint, the checkpoint key) checks itself
// against it, so a field added to the struct and to no list fails to compile. An array field
// counts as its elements (braces are elided into it).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace raystream {
namespace detail {

// Stands in for any one field's initializer (never called: only in unevaluated braces).
struct AnyField {
  template <class T>
  operator T&() const;
};

template <class T, class Indices, class = void>
struct BraceInitializable : std::false_type {};
template <class T, std::size_t... I>
struct BraceInitializable<T, std::index_sequence<I...>,
                          std::void_t<decltype(T{(void(I), AnyField{})...})>> : std::true_type {};

}  // namespace detail

template <class T, std::size_t N = 0>
constexpr std::size_t field_count() {
  static_assert(std::is_aggregate_v<T>, "field_count counts the fields of an aggregate");
  if constexpr (detail::BraceInitializable<T, std::make_index_sequence<N + 1>>::value)
    return field_count<T, N + 1>();
  else
    return N;
}

}  // namespace raystream
