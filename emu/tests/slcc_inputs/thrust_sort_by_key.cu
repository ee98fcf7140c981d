/* Sorting keys and values with Thrust, as a benchmark's reference code does
 * it: thrust::sort_by_key on device_vectors and on host_vectors (which are
 * swapped between two rounds, ping-pong), checked against std::stable_sort
 * of (key, value) pairs. With the emulator's Thrust (Debian's 1.17) the
 * swap of host_vectors compiled contiguous_storage.inl's assert without
 * <cassert>; the toolkit's CCCL builds it. Prints "thrust_sort_by_key: ok". */
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/functional.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

int main()
{
    const int n = 5003;
    std::vector<std::pair<unsigned, int>> ref(n);
    thrust::host_vector<unsigned> keys(n);
    thrust::host_vector<int> values(n);
    unsigned x = 12345u;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u; /* a fixed LCG: the same keys everywhere */
        keys[i] = x % 997u;             /* repeats, so that equal keys keep their order */
        values[i] = i;
        ref[i] = {keys[i], i};
    }
    std::stable_sort(ref.begin(), ref.end(),
                     [](const std::pair<unsigned, int> &a, const std::pair<unsigned, int> &b) { return a.first < b.first; });

    /* on the device */
    thrust::device_vector<unsigned> dk = keys;
    thrust::device_vector<int> dv = values;
    thrust::stable_sort_by_key(dk.begin(), dk.end(), dv.begin());
    thrust::host_vector<unsigned> got_k = dk;
    thrust::host_vector<int> got_v = dv;
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += got_k[i] != ref[i].first || got_v[i] != ref[i].second;

    /* on the host, descending then ascending, swapping the buffers between */
    thrust::host_vector<unsigned> k2 = keys, spare_k(n);
    thrust::host_vector<int> v2 = values, spare_v(n);
    thrust::sort_by_key(k2.begin(), k2.end(), v2.begin(), thrust::greater<unsigned>());
    for (int i = 1; i < n; i++)
        wrong += k2[i - 1] < k2[i];
    k2.swap(spare_k);
    v2.swap(spare_v);
    thrust::copy(spare_k.begin(), spare_k.end(), k2.begin());
    thrust::copy(spare_v.begin(), spare_v.end(), v2.begin());
    thrust::stable_sort_by_key(k2.begin(), k2.end(), v2.begin());
    for (int i = 0; i < n; i++)
        wrong += k2[i] != ref[i].first || keys[v2[i]] != k2[i]; /* each value still names its key */

    if (wrong) {
        std::printf("thrust_sort_by_key: %d wrong\n", wrong);
        return 1;
    }
    std::printf("thrust_sort_by_key: ok\n");
    return 0;
}
