#include "process.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace advisor::testing {

namespace {

// fork + exec with stdin from /dev/null and stdout/stderr on the given descriptors. Only
// async-signal-safe calls and the environment edits run between fork and exec.
pid_t spawn(const std::string& program, const std::vector<std::string>& args,
            const std::vector<std::string>& extraEnv, int outFd, int errFd) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& a : args) {
        argv.push_back(const_cast<char*>(a.c_str()));
    }
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        const int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        dup2(outFd, 1);
        dup2(errFd, 2);
        for (const auto& e : extraEnv) {
            if (e.find('=') == std::string::npos) {
                unsetenv(e.c_str());
            } else {
                putenv(const_cast<char*>(e.c_str()));
            }
        }
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    return pid;
}

int exitCodeOf(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extraEnv) {
    int outPipe[2];
    int errPipe[2];
    if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0) {
        throw std::runtime_error("pipe failed");
    }
    const pid_t pid = spawn(program, args, extraEnv, outPipe[1], errPipe[1]);
    close(outPipe[1]);
    close(errPipe[1]);
    ProcessResult r;
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    int open = 2;
    char buf[65536];
    while (open > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP)) == 0) {
                continue;
            }
            const ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            } else {
                (i == 0 ? r.out : r.err).append(buf, static_cast<size_t>(n));
            }
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    r.exitCode = exitCodeOf(status);
    return r;
}

Child::Child(const std::string& program, const std::vector<std::string>& args, const std::string& captureDir,
             const std::vector<std::string>& extraEnv) {
    static int serial = 0;
    const std::string stem = captureDir + "/child-" + std::to_string(getpid()) + "-" + std::to_string(++serial);
    outPath_ = stem + ".out";
    errPath_ = stem + ".err";
    const int outFd = open(outPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int errFd = open(errPath_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (outFd < 0 || errFd < 0) {
        throw std::runtime_error("cannot create capture files in " + captureDir);
    }
    pid_ = spawn(program, args, extraEnv, outFd, errFd);
    close(outFd);
    close(errFd);
}

Child::~Child() {
    if (!reaped_) {
        kill();
    }
}

bool Child::waitFor(int ms) {
    for (int waited = 0;; ++waited) {
        if (reaped_ || waitpid(pid_, &status_, WNOHANG) == pid_) {
            reaped_ = true;
            return true;
        }
        if (waited >= ms) {
            return false;
        }
        usleep(1000);
    }
}

ProcessResult Child::wait() {
    if (!reaped_) {
        waitpid(pid_, &status_, 0);
        reaped_ = true;
    }
    return collect();
}

ProcessResult Child::kill() {
    if (!reaped_) {
        ::kill(pid_, SIGKILL);
        waitpid(pid_, &status_, 0);
        reaped_ = true;
    }
    return collect();
}

ProcessResult Child::collect() {
    return {exitCodeOf(status_), slurp(outPath_), slurp(errPath_)};
}

} // namespace advisor::testing
