#include "common/file_io.h"

#include "common/errors.h"
#include "common/text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include <fcntl.h>
#include <unistd.h>

namespace advisor::files {

std::string readAll(const std::string& path, size_t maxBytes) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        throw InputError({path, 0, "", ""}, "cannot open: no such file");
    }
    if (std::filesystem::is_directory(status)) {
        throw InputError({path, 0, "", ""}, "cannot open: is a directory");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw InputError({path, 0, "", ""}, std::string("cannot open: ") + std::strerror(errno));
    }
    std::string data;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        data.append(buf, static_cast<size_t>(in.gcount()));
        if (data.size() > maxBytes) {
            throw InputError({path, 0, "", ""}, "file is larger than the limit of " +
                                                    std::to_string(maxBytes) + " bytes");
        }
    }
    return data;
}

void writeAtomically(const std::string& path, std::string_view content) {
    const std::filesystem::path target(path);
    std::filesystem::path dir = target.parent_path();
    if (dir.empty()) {
        dir = ".";
    }
    std::random_device rd;
    const std::string tmp =
        (dir / ("." + target.filename().string() + ".tmp" + std::to_string(rd()))).string();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw AdvisorError("cannot write " + path + ": " + std::strerror(errno));
    }
    size_t off = 0;
    while (off < content.size()) {
        const ssize_t n = ::write(fd, content.data() + off, content.size() - off);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            const std::string reason = std::strerror(errno);
            ::close(fd);
            ::unlink(tmp.c_str());
            throw AdvisorError("cannot write " + path + ": " + reason);
        }
        off += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(tmp.c_str());
        throw AdvisorError("cannot write " + path + ": " + reason);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(tmp.c_str());
        throw AdvisorError("cannot write " + path + ": " + reason);
    }
}

void syncToDisk(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw AdvisorError("cannot open " + path + ": " + std::strerror(errno));
    }
    const bool ok = ::fsync(fd) == 0;
    const std::string reason = ok ? "" : std::strerror(errno);
    ::close(fd);
    if (!ok) {
        throw AdvisorError("cannot write " + path + " to disk: " + reason);
    }
}

std::string extension(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    return ext.empty() ? "" : text::toLower(ext.substr(1));
}

TableFormat tableFormatForPath(const std::string& path) {
    const std::string ext = extension(path);
    if (ext == "csv") {
        return TableFormat::Csv;
    }
    if (ext == "json") {
        return TableFormat::Json;
    }
    throw InputError({path, 0, "", ""}, "unsupported file type '." + ext + "'; use .csv or .json");
}

std::string baseName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

} // namespace advisor::files
