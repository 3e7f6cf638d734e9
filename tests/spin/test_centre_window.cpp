// The Gonzalez midpoint's lambda sums take each spin's symmetric centre from a window that moves
// along the rows (CentreWindow, drg_gradients.hpp): at every row its three slots must be
// symmetric_centre of spins i-1, i and i+1, and |u + v| of each, bit for bit, whether the rows
// come in order or in the jumps of a team's partitions, for every chain length (the first and
// last rows wrap) and for the top, in double and in the wider type of a solve's last residual.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg_gradients.hpp"

namespace {

namespace gs = geomint::spin;

// Exact equality, component by component.
template <class T>
bool same(T a, T b) {
    return a == b;
}
template <class T>
bool same(const gs::Vec3<T>& a, const gs::Vec3<T>& b) {
    return same(a.x, b.x) && same(a.y, b.y) && same(a.z, b.z);
}

// Visits rows in `order` and checks every slot against symmetric_centre and norm formed afresh.
template <class Acc, bool chain>
int wrong_slots(int d, std::uint64_t seed, const std::vector<int>& order) {
    std::vector<double> u(3 * d), v(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{u.data(), 1, d}, seed, 0);
    gs::fill_random_spins(gs::StridedSpins<double>{v.data(), 1, d}, seed, 1);
    const gs::StridedSpins<double> us{u.data(), 1, d}, vs{v.data(), 1, d};
    gs::CentreWindow<Acc, double, chain> window{us, vs};
    int wrong = 0;
    for (int i : order) {
        window.move_to(i);
        const auto expect = [&](const auto& slot, int k) {
            const gs::Vec3<Acc> uk = gs::vec3_cast<Acc>(us.get(k)), vk = gs::vec3_cast<Acc>(vs.get(k));
            if (!same(slot.c, gs::symmetric_centre(uk, vk)) || !same(slot.length, gs::norm(uk + vk))) ++wrong;
        };
        expect(window.own(), i);
        expect(window.left(), chain ? us.wrap(i - 1) : i);
        expect(window.right(), chain ? us.wrap(i + 1) : i);
    }
    return wrong;
}

std::vector<int> in_order(int d) {
    std::vector<int> order;
    for (int i = 0; i < d; ++i) order.push_back(i);
    return order;
}

// Two passes in order, then partitions visited out of turn (a team's workers), and one row twice.
std::vector<int> with_jumps(int d) {
    std::vector<int> order = in_order(d);
    for (int i = 0; i < d; ++i) order.push_back(i);
    for (int i = d / 2; i < d; ++i) order.push_back(i);
    for (int i = 0; i < d / 2; ++i) order.push_back(i);
    order.push_back(d - 1);
    order.push_back(d - 1);
    return order;
}

TEST(CentreWindow, SlotsAreTheCentresOfTheRowAndItsNeighbours) {
    for (int d : {1, 2, 3, 4, 5, 16})
        for (std::uint64_t seed : {3u, 11u}) {
            EXPECT_EQ((wrong_slots<double, true>(d, seed, in_order(d))), 0) << "d = " << d;
            EXPECT_EQ((wrong_slots<double, true>(d, seed, with_jumps(d))), 0) << "d = " << d;
            EXPECT_EQ((wrong_slots<long double, true>(d, seed, with_jumps(d))), 0) << "long double, d = " << d;
        }
    EXPECT_EQ((wrong_slots<double, false>(1, 5, with_jumps(1))), 0) << "top";
    EXPECT_EQ((wrong_slots<long double, false>(1, 5, with_jumps(1))), 0) << "top, long double";
}

// The check can fail: slots read one row late (the window not moved to the last row) are wrong.
TEST(CentreWindow, CheckDetectsAStaleWindow) {
    const int d = 5;
    std::vector<double> u(3 * d), v(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{u.data(), 1, d}, 7, 0);
    gs::fill_random_spins(gs::StridedSpins<double>{v.data(), 1, d}, 7, 1);
    const gs::StridedSpins<double> us{u.data(), 1, d}, vs{v.data(), 1, d};
    gs::CentreWindow<double, double, true> window{us, vs};
    window.move_to(2);
    EXPECT_FALSE(same(window.own().c, gs::symmetric_centre(us.get(3), vs.get(3))));
    EXPECT_FALSE(same(window.right().c, gs::symmetric_centre(us.get(4), vs.get(4))));
    window.move_to(3);
    EXPECT_TRUE(same(window.own().c, gs::symmetric_centre(us.get(3), vs.get(3))));
    EXPECT_TRUE(same(window.right().c, gs::symmetric_centre(us.get(4), vs.get(4))));
}

}  // namespace
