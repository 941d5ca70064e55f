// Collects, for the result file, which test cases ran and the message of every failed assertion.

// Catch2 2.x declares its reporter interfaces only for the implementation or when asked for them.
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include "state.hpp"
#include "wb_test.hpp"

#if WB_CATCH2_MAJOR == 3
#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>
#endif

namespace wb {
namespace {

std::string describe(const Catch::AssertionStats& stats) {
    const Catch::AssertionResult& r = stats.assertionResult;
    std::string message = std::string(r.getMessage());
    std::string text;
    switch (r.getResultType()) {
        case Catch::ResultWas::ThrewException:
            text =
                "the test stopped on an exception thrown from the code under test (or a CUDA call it made): " + message;
            break;
        case Catch::ResultWas::FatalErrorCondition: text = "fatal error while running the test: " + message; break;
        case Catch::ResultWas::ExplicitFailure: text = message; break;
        default:
            text = r.hasExpression() ? r.getExpressionInMacro() + " failed" : std::string("check failed");
            if (r.hasExpandedExpression() && r.getExpandedExpression() != r.getExpression())
                text += " (with values: " + r.getExpandedExpression() + ")";
            if (!message.empty()) text += ": " + message;
            break;
    }
    std::string context;
    for (const auto& info : stats.infoMessages)
        if (info.type == Catch::ResultWas::Info) context += info.message + "\n";
    return context + text;
}

#if WB_CATCH2_MAJOR == 3
class ResultListener : public Catch::EventListenerBase {
 public:
    using Catch::EventListenerBase::EventListenerBase;
    void testCaseStarting(const Catch::TestCaseInfo& info) override { started(info.name); }
    void assertionEnded(const Catch::AssertionStats& stats) override { assertion(stats); }
    void testCaseEnded(const Catch::TestCaseStats& stats) override { ended(stats.testInfo->name, stats); }
#else
class ResultListener : public Catch::TestEventListenerBase {
 public:
    using Catch::TestEventListenerBase::TestEventListenerBase;
    void testCaseStarting(const Catch::TestCaseInfo& info) override {
        TestEventListenerBase::testCaseStarting(info);
        started(info.name);
    }
    bool assertionEnded(const Catch::AssertionStats& stats) override {
        assertion(stats);
        return true;
    }
    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        ended(stats.testInfo.name, stats);
        TestEventListenerBase::testCaseEnded(stats);
    }
#endif

 private:
    static void started(const std::string& name) {
        state::observed().started.push_back(name);
        state::set_current_test(name);
    }
    static void assertion(const Catch::AssertionStats& stats) {
        if (!stats.assertionResult.isOk()) state::observed().failures.push_back(describe(stats));
    }
    static void ended(const std::string& name, const Catch::TestCaseStats& stats) {
        auto& o = state::observed();
        o.ended.push_back(name);
        o.assertions += stats.totals.assertions.total();
        o.failed += stats.totals.assertions.failed;
    }
};

}  // namespace
}  // namespace wb

// The macro pastes its argument into an identifier, so it needs an unqualified name.
using WbResultListener = wb::ResultListener;
CATCH_REGISTER_LISTENER(WbResultListener)
