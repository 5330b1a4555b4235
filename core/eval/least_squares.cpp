#include "eval/least_squares.h"

#include <algorithm>
#include <cmath>

namespace advisor::eval {
namespace {

double loss(const std::vector<double>& r, double f) {
    double c = 0;
    for (const double v : r) {
        if (f > 0) {
            const double z = (v / f) * (v / f);
            c += 2.0 * f * f * (std::sqrt(1.0 + z) - 1.0);
        } else {
            c += v * v;
        }
    }
    return 0.5 * c;
}

void clampTo(const LeastSquaresProblem& p, std::vector<double>& x) {
    for (size_t i = 0; i < x.size(); ++i) {
        if (!p.lower.empty()) {
            x[i] = std::max(x[i], p.lower[i]);
        }
        if (!p.upper.empty()) {
            x[i] = std::min(x[i], p.upper[i]);
        }
    }
}

// Solves A x = b for a small dense symmetric system (Gaussian elimination with pivoting).
bool solveLinear(std::vector<double> a, std::vector<double> b, size_t n, std::vector<double>& x) {
    for (size_t col = 0; col < n; ++col) {
        size_t pivot = col;
        for (size_t r = col + 1; r < n; ++r) {
            if (std::fabs(a[r * n + col]) > std::fabs(a[pivot * n + col])) {
                pivot = r;
            }
        }
        if (std::fabs(a[pivot * n + col]) < 1e-300) {
            return false;
        }
        if (pivot != col) {
            for (size_t k = 0; k < n; ++k) {
                std::swap(a[col * n + k], a[pivot * n + k]);
            }
            std::swap(b[col], b[pivot]);
        }
        for (size_t r = col + 1; r < n; ++r) {
            const double f = a[r * n + col] / a[col * n + col];
            for (size_t k = col; k < n; ++k) {
                a[r * n + k] -= f * a[col * n + k];
            }
            b[r] -= f * b[col];
        }
    }
    x.assign(n, 0.0);
    for (size_t i = n; i-- > 0;) {
        double s = b[i];
        for (size_t k = i + 1; k < n; ++k) {
            s -= a[i * n + k] * x[k];
        }
        x[i] = s / a[i * n + i];
    }
    return true;
}

} // namespace

LeastSquaresResult solveLeastSquares(const LeastSquaresProblem& p, std::vector<double> x) {
    const size_t n = p.parameters;
    clampTo(p, x);
    std::vector<double> r;
    p.residuals(x, r);
    double cost = loss(r, p.softL1Scale);
    double lambda = 1e-3;
    LeastSquaresResult result;
    for (int it = 0; it < p.maxIterations; ++it) {
        result.iterations = it + 1;
        const size_t m = r.size();
        // Numeric Jacobian (forward differences, stepping inward at a bound).
        std::vector<double> jac(m * n);
        std::vector<double> rh;
        for (size_t j = 0; j < n; ++j) {
            std::vector<double> xh = x;
            double h = 1e-6 * std::max(1.0, std::fabs(x[j]));
            if (!p.upper.empty() && xh[j] + h > p.upper[j]) {
                h = -h;
            }
            xh[j] += h;
            p.residuals(xh, rh);
            for (size_t i = 0; i < m; ++i) {
                jac[i * n + j] = (rh[i] - r[i]) / h;
            }
        }
        // Soft-L1 as iteratively reweighted least squares.
        std::vector<double> w(m, 1.0);
        if (p.softL1Scale > 0) {
            for (size_t i = 0; i < m; ++i) {
                const double z = (r[i] / p.softL1Scale) * (r[i] / p.softL1Scale);
                w[i] = 1.0 / std::sqrt(1.0 + z);
            }
        }
        std::vector<double> a(n * n, 0.0), g(n, 0.0);
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const double jw = jac[i * n + j] * w[i];
                g[j] += jw * r[i];
                for (size_t k = j; k < n; ++k) {
                    a[j * n + k] += jw * jac[i * n + k];
                }
            }
        }
        for (size_t j = 0; j < n; ++j) {
            for (size_t k = 0; k < j; ++k) {
                a[j * n + k] = a[k * n + j];
            }
        }
        bool improved = false;
        for (int tries = 0; tries < 12 && !improved; ++tries) {
            std::vector<double> damped = a;
            std::vector<double> rhs(n);
            for (size_t j = 0; j < n; ++j) {
                damped[j * n + j] += lambda * std::max(a[j * n + j], 1e-12) + 1e-12;
                rhs[j] = -g[j];
            }
            std::vector<double> step;
            if (!solveLinear(damped, rhs, n, step)) {
                lambda *= 10;
                continue;
            }
            std::vector<double> xn = x;
            for (size_t j = 0; j < n; ++j) {
                xn[j] += step[j];
            }
            clampTo(p, xn);
            std::vector<double> rn;
            p.residuals(xn, rn);
            const double cn = loss(rn, p.softL1Scale);
            if (cn < cost) {
                const double gain = cost - cn;
                x = std::move(xn);
                r = std::move(rn);
                cost = cn;
                lambda = std::max(lambda / 3.0, 1e-9);
                improved = true;
                if (gain < 1e-12 * std::max(1.0, cost)) {
                    result.x = x;
                    result.cost = cost;
                    return result;
                }
            } else {
                lambda *= 4.0;
            }
        }
        if (!improved) {
            break;
        }
    }
    result.x = x;
    result.cost = cost;
    return result;
}

LeastSquaresResult solveLeastSquaresFromStarts(const LeastSquaresProblem& p, const std::vector<std::vector<double>>& starts) {
    LeastSquaresResult best;
    bool first = true;
    for (const auto& x0 : starts) {
        LeastSquaresResult r = solveLeastSquares(p, x0);
        if (first || r.cost < best.cost) {
            best = std::move(r);
            first = false;
        }
    }
    return best;
}

} // namespace advisor::eval
