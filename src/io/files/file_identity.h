// Which file a path names, by device and inode (links followed): the test that an output of a
// render is not one of its inputs, whatever names, links or hard links lead to it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace raystream {

struct FileIdentity {
  std::uint64_t device = 0, inode = 0;
  bool operator==(const FileIdentity& o) const { return device == o.device && inode == o.inode; }
};

// The file `path` names, links followed; nothing when there is none (or it cannot be looked up).
std::optional<FileIdentity> file_identity(const std::string& path);

// An output of a render: its path and its name in messages ("the image", "--stats").
struct RenderOutput {
  std::string path;
  std::string what;
};

// Throws std::invalid_argument (a bad command line) when an output is one of the inputs (the
// same device and inode): "<output>: --stats would replace the scene file <input>, which this
// render reads". Outputs that do not exist yet are none of them.
void check_outputs_are_not_inputs(const std::vector<RenderOutput>& outputs,
                                  const std::vector<SceneInput>& inputs);

}  // namespace raystream
