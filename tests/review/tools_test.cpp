#include "workbook_catch.hpp"

#include "fixture.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/sync.hpp"
#include "tools/hint.hpp"
#include "tools/reset.hpp"
#include "tools/restore.hpp"
#include "tools/state.hpp"

using namespace workbook;
namespace fs = std::filesystem;

TEST_CASE("hints are revealed one level at a time and recorded", "[hint]") {
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);

    // The first unfilled blank in file order is "sum".
    auto h1 = tools::reveal_hint(L, "k");
    CHECK(h1.blank == "sum");
    CHECK(h1.level == 1);
    CHECK(h1.newly_revealed);
    REQUIRE(h1.shown.size() == 1);
    CHECK(h1.shown[0] == "sum of squares");
    // The follow-up names this blank: without BLANK= the next call could pick another one.
    CHECK(tools::format_hint(h1, "04").find("`make hint-04 EX=k BLANK=sum` for the next level of this blank") !=
          std::string::npos);

    auto h2 = tools::reveal_hint(L, "k");
    CHECK(h2.blank == "sum");
    CHECK(h2.level == 2);
    CHECK(h2.shown.back() == "each thread strides over the row");
    CHECK(tools::hints_used(root, "04") == nlohmann::json::parse(R"({"k": {"sum": 2}})"));

    // A named blank has its own progression; --level jumps ahead but never back.
    auto i3 = tools::reveal_hint(L, "k", "inv", 3);
    CHECK(i3.level == 3);
    CHECK(i3.shown.size() == 3);
    auto i1 = tools::reveal_hint(L, "k", "inv", 1);
    CHECK_FALSE(i1.newly_revealed);
    CHECK(i1.level == 3);
    CHECK(i1.shown.size() == 1);
    CHECK(tools::reveal_hint(L, "k", "inv").level == 4);
    auto i4 = tools::reveal_hint(L, "k", "inv");
    CHECK(i4.level == 4);
    CHECK_FALSE(i4.newly_revealed);
    CHECK(tools::format_hint(i4, "04").find("last level") != std::string::npos);
    CHECK(tools::hints_used(root, "04-demo") == nlohmann::json::parse(R"({"k": {"sum": 2, "inv": 4}})"));

    CHECK_THROWS_WITH(tools::reveal_hint(L, "nope"), "Unknown exercise 'nope'; this lesson has: k.");
    CHECK_THROWS_WITH(tools::reveal_hint(L, "k", "zz"), "Exercise 'k' has no blank 'zz'; its blanks are: sum, inv.");

    // A corrupt state file is set aside, not lost.
    fixture::write(root / ".workbook/state.json", "{not json");
    auto again = tools::reveal_hint(L, "k", "sum");
    CHECK(again.level == 1);
    CHECK(again.note.find("was unreadable; it was moved to .workbook/backups/") != std::string::npos);
    fs::remove_all(root);
}

TEST_CASE("reset keeps a backup of the student's file", "[reset]") {
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
    const fs::path file = root / "exercises/04-demo/k.cu";
    const std::string starter = fixture::read(file);

    auto same = tools::reset_exercise(L, "k");
    CHECK_FALSE(same.changed);
    CHECK(same.backup.empty());

    fixture::write(file, "my work in progress\n");
    auto r = tools::reset_exercise(L, "k");
    CHECK(r.changed);
    REQUIRE_FALSE(r.backup.empty());
    CHECK(fixture::read(r.backup) == "my work in progress\n");
    CHECK(r.backup.string().find(".workbook/backups/") != std::string::npos);
    CHECK(fixture::read(file) == starter);
    CHECK(r.message.find("Saved your version to .workbook/backups/") == 0);
    CHECK(r.message.find("To bring your version back: make restore-04 EX=k") != std::string::npos);

    // Two resets in the same second keep both backups.
    fixture::write(file, "second attempt\n");
    auto r2 = tools::reset_exercise(L, "k");
    CHECK(r2.backup != r.backup);
    CHECK(fixture::read(r.backup) == "my work in progress\n");
    CHECK(fixture::read(r2.backup) == "second attempt\n");

    CHECK_THROWS_AS(tools::reset_exercise(L, "missing"), util::UserError);
    fs::remove_all(root);
}

TEST_CASE("restore brings back the latest backup, or a named one, after saving the current file", "[reset]") {
    fs::path root = fixture::make_repo();
    auto L = lesson::load_lesson(root, "04");
    lesson::sync_lesson(L, false);
    const fs::path file = root / "exercises/04-demo/k.cu";
    auto error_of = [&](const std::string& stamp) {
        try {
            tools::restore_exercise(L, "k", stamp);
        } catch (const util::UserError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error_of("").find("There is no backup of exercises/04-demo/k.cu") == 0);

    fixture::write(file, "first\n");
    const auto r1 = tools::reset_exercise(L, "k");
    fixture::write(file, "second\n");
    const auto r2 = tools::reset_exercise(L, "k");
    const std::string starter = fixture::read(file);
    auto all = tools::backups_of(L, "k");
    REQUIRE(all.size() == 2);
    CHECK(fixture::read(all[0].file) == "first\n");  // oldest first, even within one second

    // The most recent: "second"; the starter that was there is saved first.
    auto back = tools::restore_exercise(L, "k");
    CHECK(fixture::read(file) == "second\n");
    REQUIRE_FALSE(back.saved.empty());
    CHECK(fixture::read(back.saved) == starter);
    CHECK(back.message.find("Saved your current version to .workbook/backups/") == 0);
    // An older one by its stamp; "second" is saved again, so nothing is lost.
    auto older = tools::restore_exercise(L, "k", all[0].stamp);
    CHECK(fixture::read(file) == "first\n");
    CHECK(fixture::read(older.saved) == "second\n");
    CHECK(error_of("19990101-000000")
              .find("No backup '19990101-000000' of exercises/04-demo/k.cu; the backups are (oldest first): " +
                    all[0].stamp) == 0);
    CHECK(fixture::read(file) == "first\n");
    (void)r1;
    (void)r2;
    fs::remove_all(root);
}

TEST_CASE("a file saved as UTF-16 or UTF-32 is named so, with how to save it, not called binary", "[tools]") {
    const fs::path dir = fs::temp_directory_path() / ("wb-encoding-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    const std::string ascii = "// a kernel\n__global__ void k() {}\n";
    auto widen = [&](bool big_endian, const std::string& bom) {
        std::string out = bom;
        for (char c : ascii) out += big_endian ? std::string{'\0', c} : std::string{c, '\0'};
        return out;
    };
    const struct {
        std::string name, bytes, says;
    } cases[] = {
        {"le_bom.cu", widen(false, "\xff\xfe"), "is saved as UTF-16, a text encoding"},
        {"be_bom.cu", widen(true, "\xfe\xff"), "is saved as UTF-16"},
        {"le.cu", widen(false, ""), "is saved as UTF-16"},  // PowerShell 5's `>` writes a mark; other tools do not
        {"utf32.cu", std::string("\xff\xfe\0\0", 4) + "/\0\0\0/\0\0\0", "is saved as UTF-32"},
        {"binary.cu",
         std::string("\x7f"
                     "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0",
                     20),
         "is a binary file, not source text"},
    };
    for (const auto& c : cases) {
        fixture::write(dir / c.name, c.bytes);
        const auto r = workbook::util::read_submitted(dir / c.name, c.name);
        INFO(c.name << ": " << r.refusal);
        CHECK(r.refusal.find(c.name + " " + c.says) == 0);
        if (c.says != "is a binary file, not source text")
            CHECK(r.refusal.find("save it as UTF-8") != std::string::npos);
    }
    fs::remove_all(dir);
}
