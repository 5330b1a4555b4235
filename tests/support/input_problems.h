#pragma once
// What a rejected input said: runs `fn` and returns the InputError it threw - each problem as the
// user sees it ("file:line: entry: field 'x': reason"), or its whole message; empty when it did not throw.

#include "common/errors.h"

#include <functional>
#include <string>
#include <vector>

namespace advisor::testing {

inline std::vector<std::string> problemsOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const InputError& e) {
        std::vector<std::string> out;
        for (const auto& p : e.problems()) {
            out.push_back(p.describe());
        }
        return out;
    }
    return {};
}

inline std::string messageOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace advisor::testing
