// The Catch2 session header for either major version (the runner is our own main).
#pragma once
#if TUTORIAL_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif
