#include "io/files/file_identity.h"

#include <sys/stat.h>

#include <stdexcept>

namespace raystream {

std::optional<FileIdentity> file_identity(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{std::uint64_t(st.st_dev), std::uint64_t(st.st_ino)};
}

void check_outputs_are_not_inputs(const std::vector<RenderOutput>& outputs,
                                  const std::vector<SceneInput>& inputs) {
  for (const RenderOutput& output : outputs) {
    const std::optional<FileIdentity> id = file_identity(output.path);
    if (!id) continue;
    for (const SceneInput& input : inputs) {
      if (!(*id == FileIdentity{input.device, input.inode})) continue;
      throw std::invalid_argument(output.path + ": " + output.what + " would replace the " +
                                  input.kind + " " + input.path +
                                  ", which this render reads (an output may not be an input)");
    }
  }
}

}  // namespace raystream
