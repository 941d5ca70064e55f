// `workbook`: the one command behind the Makefile's verbs. Each subcommand lives with its own code; this file only
// assembles them and turns errors into exit statuses.
#include <iostream>

#include <CLI/CLI.hpp>

#include "grade/grade.hpp"
#include "interfaces.hpp"
#include "tools/profile.hpp"

int main(int argc, char** argv) {
    CLI::App app{"workbook: grade CUDA exercises, show hints and progress, manage submissions"};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Help for every subcommand");

    workbook::grade::add_grade_command(app);
    workbook::tools::add_hint_command(app);
    workbook::tools::add_status_command(app);
    workbook::tools::add_reset_command(app);
    workbook::tools::add_restore_command(app);
    workbook::tools::add_report_command(app);
    workbook::tools::add_watch_command(app);
    workbook::tools::add_sync_command(app);
    workbook::tools::add_check_command(app);
    workbook::tools::add_new_lesson_command(app);
    workbook::tools::add_class_command(app);
    workbook::tools::add_gradescope_command(app);
    workbook::tools::add_solutions_branch_command(app);
    workbook::tools::add_student_edition_command(app);
    workbook::tools::add_profile_command(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::RuntimeError& e) {
        return e.get_exit_code();  // a subcommand's verdict; it has printed its own report
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const workbook::util::UserError& e) {
        std::cerr << "workbook: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "workbook: internal error: " << e.what() << "\n";
        return 3;
    }
    return 0;
}
