// Work-precision of pendulum ensembles (issue 9): wall time against the error at T for every
// geomint pendulum scheme (the CPU batch path the CLI runs) and Boost.Odeint's fixed-step
// steppers, in one run so the timings are comparable. Both sides run OpenMP over trajectories
// with the same schedule and thread count.
//
// Ensemble: n pendulums q'' + sin q = 0 (mass 1, w = 1), q0 = 3 (i + 1/2) / n, p0 = 0, to
// T = periods x the period of the q0 = 1.5 orbit, h = T / steps. The error of a run is the
// largest over trajectories of max(|q - q_exact|, |p - p_exact|) at T, against the Jacobi elliptic
// solution of src/pendulum_exact.hpp. Output: CSV on stdout (or --out), one row per run:
//   method,steps,h,seconds,steps_per_second,max_error,cpu_seconds,trajectories,threads
// seconds is wall time, the fastest of --repeat runs; steps_per_second counts trajectory-steps
// (n x steps / seconds); cpu_seconds is the process's user + system time over the same run (all
// threads), a check on wall times taken on a shared machine. tools/work-precision.sh runs it on the ensemble
// and plots the CSV.
#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <boost/numeric/odeint.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "geomint/pendulum/registry.hpp"
#include "pendulum_batch.hpp"
#include "pendulum_exact.hpp"
#include "registry_lookup.hpp"

namespace {

namespace odeint = boost::numeric::odeint;

struct Ensemble {
    std::vector<double> q0, p0;        // initial states
    std::vector<double> q_end, p_end;  // exact states at T
    double t_end = 0;
};

Ensemble make_ensemble(std::size_t n, double periods) {
    Ensemble e;
    e.t_end = periods * geomint::pendulum_period(1.0, 1.0, 1.5, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const double q0 = 3.0 * (double(i) + 0.5) / double(n);
        const geomint::PendulumPhasePoint exact = geomint::pendulum_exact(1.0, 1.0, q0, 0.0, e.t_end);
        e.q0.push_back(q0);
        e.p0.push_back(0.0);
        e.q_end.push_back(exact.q);
        e.p_end.push_back(exact.p);
    }
    return e;
}

// Integrates every trajectory with `steps` steps of h, writing the final states to q and p.
using Runner = std::function<void(const Ensemble&, double h, long long steps, int threads, std::vector<double>& q,
                                  std::vector<double>& p)>;

struct Method {
    std::string name;
    Runner run;
};

// A geomint scheme through run_pendulum_batch_cpu, as the CLI's CPU backend runs it (default
// Newton settings; every trajectory must finish with status ok).
Runner geomint_runner(const std::string& scheme) {
    return
        [model = geomint::make_pendulum_model(scheme), scheme](
            const Ensemble& e, double h, long long steps, int threads, std::vector<double>& q, std::vector<double>& p) {
            geomint::PendulumBatch<double> batch;
            batch.resize(e.q0.size());
            std::copy(e.q0.begin(), e.q0.end(), batch.q0.begin());
            std::copy(e.p0.begin(), e.p0.end(), batch.p0.begin());
            std::fill(batch.mass.begin(), batch.mass.end(), 1.0);
            std::fill(batch.omega.begin(), batch.omega.end(), 1.0);
            const geomint::PendulumStepSettings<double> step{h, steps, {}};
            geomint::run_pendulum_batch_cpu(model, step, batch, threads);
            for (std::size_t i = 0; i < batch.size(); ++i) {
                if (batch.status[i] != static_cast<std::uint8_t>(geomint::SolveStatus::ok) ||
                    batch.steps_completed[i] != steps)
                    throw std::runtime_error(scheme + ": trajectory " + std::to_string(i) + " did not complete");
            }
            q = batch.q;
            p = batch.p;
        };
}

using Coordinate = std::array<double, 1>;

// dp/dt = -sin q (mass 1, w = 1); the symplectic steppers take dq/dt = p from the single function.
struct PendulumForce {
    void operator()(const Coordinate& q, Coordinate& dpdt) const { dpdt[0] = -std::sin(q[0]); }
};

// A Boost.Odeint stepper run with integrate_n_steps (exactly `steps` fixed steps), one
// trajectory per OpenMP iteration; `integrate(q0, p0, h, steps, q, p)` runs one trajectory.
template <class Integrate>
Runner odeint_runner(Integrate integrate) {
    return [integrate](const Ensemble& e, double h, long long steps, int threads, std::vector<double>& q,
                       std::vector<double>& p) {
        const auto n = static_cast<long long>(e.q0.size());
        q.assign(e.q0.size(), 0.0);
        p.assign(e.q0.size(), 0.0);
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
        for (long long i = 0; i < n; ++i) {
            const auto k = static_cast<std::size_t>(i);
            integrate(e.q0[k], e.p0[k], h, static_cast<std::size_t>(steps), q[k], p[k]);
        }
    };
}

// A symplectic RKN stepper of Odeint on the (q, p) pair state.
template <class Stepper>
Runner odeint_symplectic() {
    return odeint_runner([](double q0, double p0, double h, std::size_t steps, double& q_out, double& p_out) {
        std::pair<Coordinate, Coordinate> state{{q0}, {p0}};
        odeint::integrate_n_steps(Stepper(), PendulumForce(), state, 0.0, h, steps);
        q_out = state.first[0];
        p_out = state.second[0];
    });
}

Runner odeint_rk4() {
    using State = std::array<double, 2>;
    return odeint_runner([](double q0, double p0, double h, std::size_t steps, double& q_out, double& p_out) {
        State x{q0, p0};
        const auto rhs = [](const State& s, State& dsdt, double) {
            dsdt[0] = s[1];
            dsdt[1] = -std::sin(s[0]);
        };
        odeint::integrate_n_steps(odeint::runge_kutta4<State>(), rhs, x, 0.0, h, steps);
        q_out = x[0];
        p_out = x[1];
    });
}

Runner odeint_velocity_verlet() {
    return odeint_runner([](double q0, double p0, double h, std::size_t steps, double& q_out, double& p_out) {
        std::pair<Coordinate, Coordinate> state{{q0}, {p0}};
        // A fresh stepper per trajectory: velocity_verlet keeps the last acceleration (FSAL).
        const auto acceleration = [](const Coordinate& x, const Coordinate&, Coordinate& a, double) {
            a[0] = -std::sin(x[0]);
        };
        odeint::integrate_n_steps(odeint::velocity_verlet<Coordinate>(), acceleration, state, 0.0, h, steps);
        q_out = state.first[0];
        p_out = state.second[0];
    });
}

std::vector<Method> all_methods() {
    std::vector<Method> methods;
    for (const std::string& scheme : geomint::registry_names(geomint::PendulumSchemes{}))
        methods.push_back({"geomint_" + scheme, geomint_runner(scheme)});
    methods.push_back(
        {"odeint_mclachlan_rkn4", odeint_symplectic<odeint::symplectic_rkn_sb3a_mclachlan<Coordinate>>()});
    methods.push_back({"odeint_rk4", odeint_rk4()});
    methods.push_back({"odeint_velocity_verlet", odeint_velocity_verlet()});
    return methods;
}

double process_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) items.push_back(item);
    return items;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Work-precision of pendulum ensembles: geomint's schemes against Boost.Odeint (CSV)"};
    std::size_t trajectories = 20000;
    std::string steps_list = "500,1000,2000,4000,8000,16000,32000";
    std::string methods_list;
    double periods = 10;
    int threads = 0;
    int repeat = 1;
    std::string out_path;
    bool list = false;
    app.add_option("--trajectories", trajectories, "ensemble size n")->check(CLI::PositiveNumber);
    app.add_option("--steps", steps_list, "comma-separated step counts")->capture_default_str();
    app.add_option("--methods", methods_list, "comma-separated methods (default: all; see --list)");
    app.add_option("--periods", periods, "T in periods of the q0 = 1.5 orbit")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--threads", threads, "OpenMP threads for every method (0: OpenMP's default)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--repeat", repeat, "runs per point; the fastest is reported")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--out", out_path, "CSV file (default: standard output)");
    app.add_flag("--list", list, "print the method names and exit");
    CLI11_PARSE(app, argc, argv);

    try {
        std::vector<Method> methods = all_methods();
        if (list) {
            for (const Method& m : methods) std::cout << m.name << '\n';
            return 0;
        }
        if (!methods_list.empty()) {
            std::vector<Method> chosen;
            for (const std::string& name : split(methods_list)) {
                const auto it =
                    std::find_if(methods.begin(), methods.end(), [&](const Method& m) { return m.name == name; });
                if (it == methods.end()) throw std::invalid_argument("unknown method '" + name + "' (see --list)");
                chosen.push_back(*it);
            }
            methods = chosen;
        }
        std::vector<long long> step_counts;
        for (const std::string& text : split(steps_list)) {
            std::size_t used = 0;
            const long long steps = std::stoll(text, &used);
            if (used != text.size() || steps <= 0) throw std::invalid_argument("bad step count '" + text + "'");
            step_counts.push_back(steps);
        }
        if (step_counts.empty()) throw std::invalid_argument("--steps lists no step count");
        if (threads == 0) threads = omp_get_max_threads();

        const Ensemble ensemble = make_ensemble(trajectories, periods);
        std::FILE* out = out_path.empty() ? stdout : std::fopen(out_path.c_str(), "w");
        if (out == nullptr) throw std::runtime_error("cannot open " + out_path);
        std::fprintf(out, "method,steps,h,seconds,steps_per_second,max_error,cpu_seconds,trajectories,threads\n");
        std::fflush(out);
        std::fprintf(stderr, "work_precision: %zu trajectories, T = %.17g, %d threads\n", trajectories, ensemble.t_end,
                     threads);

        // Step counts outer, methods inner: a change in the machine's load during the run then
        // falls on every method of a step count alike.
        std::vector<double> q, p;
        for (const Method& method : methods) method.run(ensemble, ensemble.t_end / 100, 100, threads, q, p);  // warm-up
        for (const long long steps : step_counts) {
            for (const Method& method : methods) {
                const double h = ensemble.t_end / double(steps);
                double seconds = std::numeric_limits<double>::infinity();
                double cpu_seconds = std::numeric_limits<double>::infinity();
                for (int r = 0; r < repeat; ++r) {
                    const double cpu_start = process_cpu_seconds();
                    const auto start = std::chrono::steady_clock::now();
                    method.run(ensemble, h, steps, threads, q, p);
                    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
                    seconds = std::min(seconds, elapsed.count());
                    cpu_seconds = std::min(cpu_seconds, process_cpu_seconds() - cpu_start);
                }
                double max_error = 0;
                for (std::size_t i = 0; i < trajectories; ++i) {
                    const double error =
                        std::max(std::abs(q[i] - ensemble.q_end[i]), std::abs(p[i] - ensemble.p_end[i]));
                    if (!(error <= max_error)) max_error = error;  // a NaN propagates
                }
                const double rate = double(trajectories) * double(steps) / seconds;
                std::fprintf(out, "%s,%lld,%.9g,%.6g,%.6g,%.6e,%.6g,%zu,%d\n", method.name.c_str(), steps, h, seconds,
                             rate, max_error, cpu_seconds, trajectories, threads);
                std::fflush(out);
                std::fprintf(stderr, "work_precision: %-24s %6lld steps %9.3f s (cpu %8.3f s)  error %.3e\n",
                             method.name.c_str(), steps, seconds, cpu_seconds, max_error);
            }
        }
        if (out != stdout && std::fclose(out) != 0) throw std::runtime_error("cannot write " + out_path);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "work_precision: %s\n", error.what());
        return 1;
    }
    return 0;
}
