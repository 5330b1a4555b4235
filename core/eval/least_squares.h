#pragma once
/// \file
/// A small robust nonlinear least-squares solver (Levenberg-Marquardt with box bounds and
/// a soft-L1 loss via reweighting), enough for the model's dozen calibration constants.

#include <functional>
#include <vector>

namespace advisor::eval {

struct LeastSquaresProblem {
    size_t parameters = 0;
    /// Fills r with the residuals at x (size may be anything but must not change).
    std::function<void(const std::vector<double>& x, std::vector<double>& r)> residuals;
    std::vector<double> lower; ///< bounds; empty = unbounded
    std::vector<double> upper;
    double softL1Scale = 0.0; ///< 0: plain squares; else soft-L1 with this residual scale
    int maxIterations = 300;
};

struct LeastSquaresResult {
    std::vector<double> x;
    double cost = 0;
    int iterations = 0;
};

LeastSquaresResult solveLeastSquares(const LeastSquaresProblem& p, std::vector<double> x0);

/// The lowest-cost result over several starting points (the first wins a tie): for problems
/// with more than one local minimum, so that the answer does not hinge on where one start lands.
LeastSquaresResult solveLeastSquaresFromStarts(const LeastSquaresProblem& p, const std::vector<std::vector<double>>& starts);

} // namespace advisor::eval
