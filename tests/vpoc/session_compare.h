// Every field of two sessions' results compared, for the VPOC tests that check one path against another.
#pragma once

#include "core/vpoc/volume_profile.h"

#include <QTest>

namespace stackscope::vpoc::testing {

// QCOMPARE each field of `got` with `want`; the caller returns when QTest::currentTestFailed().
inline void compareSession(const SessionResult& got, const SessionResult& want)
{
    QCOMPARE(got.day, want.day);
    QCOMPARE(got.bars, want.bars);
    QCOMPARE(got.firstUs, want.firstUs);
    QCOMPARE(got.lastUs, want.lastUs);
    QCOMPARE(got.volume, want.volume);
    QCOMPARE(got.lowTick, want.lowTick);
    QCOMPARE(got.highTick, want.highTick);
    QCOMPARE(got.pocTick, want.pocTick);
    QCOMPARE(got.vahTick, want.vahTick);
    QCOMPARE(got.valTick, want.valTick);
    QVERIFY(got.profile == want.profile);
}

} // namespace stackscope::vpoc::testing
