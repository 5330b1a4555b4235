#pragma once
// What a rejected input said: runs `fn` and returns each problem of the InputError it threw,
// described as the user sees it ("file:line: entry: field 'x': reason"); empty when it did not throw.

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

} // namespace advisor::testing
