// ROUGE-1.5.5 LCS hit marking on integer token ids (ROUGE-L's summary-level union LCS and ROUGE-W's weighted
// LCS, scored by _rouge155_kernel.hpp): a token sequence (Seq) and the backtrack that marks its hits (PathMarker).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "_interrupt.hpp"

namespace refscore::rouge155 {

struct Seq {
    const uint32_t* data;
    int64_t len;
};

// ------------------------------------------------------------------------------------------------------------
// LCS / WLCS hit marking: the backtrack of lcs_inner / wlcs_inner (rows = model sentence, columns = peer
// sentence). Ties go "up" (drop the model token) when c[i-1][j] >= c[i][j-1]. A direct table is used when it
// has at most `block_cells` cells; larger problems are split by rows (divide and conquer on the backtrack,
// one row of DP values per recursion level), so memory stays O(peer length * log(model length)).
// ------------------------------------------------------------------------------------------------------------
struct PathMarker {
    bool weighted = false;
    const double* fpow = nullptr;  // fpow[k] = k ** weight (WLCS only)
    const uint32_t* x = nullptr;   // model sentence
    const uint32_t* y = nullptr;   // peer sentence
    uint8_t* mask = nullptr;       // hit mask over the model sentence
    int64_t block_cells = (int64_t)1 << 21;
    std::vector<double> table;
    std::vector<int32_t> lrow_prev, lrow_cur;

    inline double match_value(double diagonal, int32_t run) const {
        return weighted ? (diagonal + fpow[run + 1]) - fpow[run] : diagonal + 1.0;
    }

    // One DP row: row i (model token xi) over columns 0..J from row i-1 (prev, l_prev).
    // The table is quadratic in the sentence lengths (a 100,000-token line: tens of seconds), so each row first
    // polls for Ctrl-C (_interrupt.hpp): once a signal arrived no row is computed, nothing reads a row left
    // unwritten (every later row returns here too), and the caller raises instead of returning the scores.
    inline void step_row(uint32_t xi, int64_t J, const double* prev, const int32_t* l_prev, double* row,
                         int32_t* l_row) const {
        if (interrupt::interrupted()) return;
        row[0] = 0.0;
        l_row[0] = 0;
        for (int64_t j = 1; j <= J; ++j) {
            if (xi == y[j - 1]) {
                const int32_t run = l_prev[j - 1];
                row[j] = match_value(prev[j - 1], run);
                l_row[j] = run + 1;
            } else {
                row[j] = prev[j] >= row[j - 1] ? prev[j] : row[j - 1];
                l_row[j] = 0;
            }
        }
    }

    // rows lo+1..hi over columns 0..J, starting from row lo = (c0, l0); keeps the whole block in `table`.
    void fill_block(int64_t lo, int64_t hi, int64_t J, const double* c0, const int32_t* l0) {
        const int64_t width = J + 1;
        const int64_t rows = hi - lo + 1;
        table.resize((size_t)(rows * width));
        std::copy(c0, c0 + width, table.begin());
        lrow_prev.assign(l0, l0 + width);
        lrow_cur.resize((size_t)width);
        for (int64_t r = 1; r < rows; ++r) {
            double* row = &table[(size_t)(r * width)];
            step_row(x[lo + r - 1], J, row - width, lrow_prev.data(), row, lrow_cur.data());
            lrow_prev.swap(lrow_cur);
        }
    }

    // DP row `hi` from row lo = (c0, l0), with two rolling rows only.
    void forward_rows(int64_t lo, int64_t hi, int64_t J, const double* c0, const int32_t* l0,
                      std::vector<double>& c_out, std::vector<int32_t>& l_out) {
        const int64_t width = J + 1;
        std::vector<double> c_prev(c0, c0 + width), c_cur((size_t)width);
        std::vector<int32_t> l_prev(l0, l0 + width), l_cur((size_t)width);
        for (int64_t i = lo + 1; i <= hi; ++i) {
            step_row(x[i - 1], J, c_prev.data(), l_prev.data(), c_cur.data(), l_cur.data());
            c_prev.swap(c_cur);
            l_prev.swap(l_cur);
        }
        c_out.swap(c_prev);
        l_out.swap(l_prev);
    }

    // Backtrack inside the block from (hi, J); returns the column where the path leaves the block through
    // row lo, or -1 when it ended (column 0 reached).
    int64_t trace_block(int64_t lo, int64_t hi, int64_t J) {
        const int64_t width = J + 1;
        int64_t i = hi, j = J;
        while (i > lo && j > 0) {
            const int64_t r = i - lo;
            if (x[i - 1] == y[j - 1]) {
                mask[i - 1] = 1;
                --i;
                --j;
            } else if (table[(size_t)((r - 1) * width + j)] >= table[(size_t)(r * width + j - 1)]) {
                --i;
            } else {
                --j;
            }
        }
        return j > 0 ? j : -1;
    }

    int64_t solve(int64_t lo, int64_t hi, int64_t J, const double* c0, const int32_t* l0) {
        if (hi - lo <= 1 || (hi - lo + 1) * (J + 1) <= block_cells) {
            fill_block(lo, hi, J, c0, l0);
            return trace_block(lo, hi, J);
        }
        const int64_t mid = lo + (hi - lo) / 2;
        std::vector<double> c_mid;
        std::vector<int32_t> l_mid;
        forward_rows(lo, mid, J, c0, l0, c_mid, l_mid);
        const int64_t exit_column = solve(mid, hi, J, c_mid.data(), l_mid.data());
        if (exit_column <= 0) return -1;
        return solve(lo, mid, exit_column, c0, l0);
    }

    // Mark the LCS (or WLCS) positions of model sentence `model` against peer sentence `peer` in `hit_mask`.
    void mark(Seq model, Seq peer, uint8_t* hit_mask) {
        if (model.len == 0 || peer.len == 0) return;
        x = model.data;
        y = peer.data;
        mask = hit_mask;
        std::vector<double> c0((size_t)(peer.len + 1), 0.0);
        std::vector<int32_t> l0((size_t)(peer.len + 1), 0);
        solve(0, model.len, peer.len, c0.data(), l0.data());
    }

    // The WLCS value c[m][n] alone (Lin 2004's WLCS), in memory linear in the peer length.
    double wlcs_value(Seq model, Seq peer) {
        if (model.len == 0 || peer.len == 0) return 0.0;
        x = model.data;
        y = peer.data;
        std::vector<double> c0((size_t)(peer.len + 1), 0.0), c_out;
        std::vector<int32_t> l0((size_t)(peer.len + 1), 0), l_out;
        forward_rows(0, model.len, peer.len, c0.data(), l0.data(), c_out, l_out);
        return c_out[(size_t)peer.len];
    }
};

}  // namespace refscore::rouge155
