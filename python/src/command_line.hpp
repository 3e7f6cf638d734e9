// The Python module's keyword arguments, turned by geomint/__init__.py into the CLI's options,
// parsed here exactly as `geomint pendulum|spin` parses them: the same checks, the same messages.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "input_files.hpp"
#include "pendulum_command.hpp"
#include "portrait_command.hpp"
#include "spin_command.hpp"

namespace geomint::python {

// The input files of one call of the module (input_files.hpp): those its options name register
// themselves as they are parsed; `sweep_files` are those the arguments were read from
// (geomint.run's). No output of the call may be one of them.
class CommandInputs {
public:
    explicit CommandInputs(const std::vector<std::string>& sweep_files) {
        for (const std::string& path : sweep_files) register_input_file(path, kSweepFileRole);
    }

private:
    InputFilesScope scope_;
};

// `arguments` as typed after `geomint pendulum` (or `spin`); the results stay in memory (no
// --out). Throws UsageError for bad input, with the CLI's message.
PendulumRun parse_pendulum_arguments(const std::vector<std::string>& arguments);
SpinRun parse_spin_arguments(const std::vector<std::string>& arguments);

// `arguments` as typed after `geomint portrait FAMILY` (pendulum or spin), parsed and checked;
// --out is optional (the histogram stays in memory).
// With `rows`, they are the ensemble's rows (as plan_portrait_pendulum|spin take them).
PortraitPlan parse_portrait_arguments(const std::string& family, const std::vector<std::string>& arguments,
                                      std::shared_ptr<const RowTable> rows = nullptr);

// The options of a command ("pendulum", "spin", "portrait pendulum", "portrait spin"): each long name ("--t-end") and
// whether it is a flag (takes no value).
std::vector<std::pair<std::string, bool>> command_options(const std::string& family);

// The command's --help text, as the CLI prints it.
std::string command_help(const std::string& family);

}  // namespace geomint::python
