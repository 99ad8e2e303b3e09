// The one error type of the scene model and its readers.
#pragma once

#include <stdexcept>
#include <string>

#include "core/excerpt.h"

namespace raystream {

// Every problem with a scene or a file it names: the message names the file, the key path (for
// example "Objects[2].MATERIAL") and what was expected. It is one line of at most kMaxMessage
// bytes (longer messages keep their beginning and end).
class SceneError : public std::runtime_error {
 public:
  explicit SceneError(const std::string& what) : std::runtime_error(excerpt(what, kMaxMessage)) {}
};

}  // namespace raystream
