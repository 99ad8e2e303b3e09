// Fresh host memory's page faults taken on every core at once. The first write to each 4 KiB
// page of a new allocation faults, and a std::vector's resize zero-fills its new elements on one
// thread, so the faults of a large array (a scene's million triangles: 105 MB, some 26000 pages)
// are taken one after another. Populating the pages first, in parallel slices, takes them at once;
// the zero-fill that follows then writes memory that is already mapped.
#pragma once

#include <cstddef>
#include <vector>

namespace raystream {

// Maps the pages within [data, data + bytes) writable (Linux: MADV_POPULATE_WRITE, in slices
// across the OpenMP threads), leaving their contents as they are. A hint: small ranges, and
// systems that cannot, are left alone.
void populate_pages(const void* data, std::size_t bytes);

// v.reserve(count), its pages populated.
template <class T>
void reserve_populated(std::vector<T>& v, std::size_t count) {
  v.reserve(count);
  populate_pages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace raystream
