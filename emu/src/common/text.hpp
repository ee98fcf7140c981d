/* simtlab CPU emulator — small text helpers every layer may use (a leaf:
 * includes nothing of emu/src). */
#ifndef SIMTLAB_EMU_COMMON_TEXT_HPP
#define SIMTLAB_EMU_COMMON_TEXT_HPP

#include <cstddef>
#include <cstring>

namespace simtlab_emu {

/* A message that overflowed its buffer (`needed`: what snprintf returned)
 * ends at the last whole word that leaves room for a marker saying so: a
 * diagnostic is never cut mid-word without a word. UTF-8 sequences are not
 * split. */
inline void mark_if_cut(char *text, std::size_t cap, int needed)
{
    static const char marker[] = " [... message cut]";
    constexpr std::size_t mlen = sizeof marker - 1;
    if (needed < 0 || static_cast<std::size_t>(needed) < cap || cap <= mlen + 1)
        return;
    std::size_t end = std::strlen(text);
    if (end > cap - 1 - mlen)
        end = cap - 1 - mlen;
    std::size_t cut = end;
    while (cut > 0 && text[cut] != ' ')
        cut--;
    if (cut == 0)
        cut = end;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        cut--;
    std::memcpy(text + cut, marker, mlen + 1);
}

} /* namespace simtlab_emu */

#endif
