#include "common/text.h"
#include <gtest/gtest.h>
TEST(Text, Trim) { EXPECT_EQ(advisor::text::trim("  a "), "a"); }
