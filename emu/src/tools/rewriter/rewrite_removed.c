/* simtlab source rewriter — texture and surface references, which CUDA 12.0
 * removed (the whole is described in tools/rewriter/rewrite.c):
 *
 *   texture<float, 1, cudaReadModeElementType> tex;
 *     -> ::simtlab_emu::removed_texture_reference<float, 1, cudaReadModeElementType> tex;
 *   surface<void, 2> surf;
 *     -> ::simtlab_emu::removed_surface_reference<void, 2> surf;
 *
 * whose declaration then stops the build with a message that says what was
 * removed, when, and what replaces it (simtlab_emu/removed.h), instead of
 * g++'s "'texture' does not name a type". The emulator's headers do not
 * declare a global `texture` template as CUDA 11's did: a program of CUDA
 * 12 or 13 may have its own `texture` (a ray tracer's texture class), so
 * only a declaration that reads as a texture reference is rewritten:
 *   - at namespace scope, `texture` or `surface` not after `::`, `.`, `->`
 *     or a class key, followed by a template argument list and a
 *     declarator name (then `;`, `,`, `=` or `[`);
 *   - its second argument, if any, is a number or a cudaTextureType* /
 *     cudaSurfaceType* name, its third a cudaReadMode* name, and with one
 *     argument the file reads textures (tex1Dfetch, tex2D, cudaBindTexture...);
 *   - the file declares no `texture` (or `surface`) of its own.
 */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Token i's text starts with `prefix`. */
static bool tok_starts_with(const rw *r, size_t i, const char *prefix)
{
    const size_t n = strlen(prefix);
    return i < r->ntoks && tok_len(r, i) >= n && memcmp(tok_text(r, i), prefix, n) == 0;
}

/* The `>` that closes the template argument list opened by the `<` at
 * `open`, with the top-level commas' positions in commas[] (at most 4);
 * 0 when there is none before a `;`, `{` or `}`. */
static size_t angle_close(const rw *r, size_t open, size_t *commas, size_t *ncommas)
{
    int depth = 0;
    *ncommas = 0;
    for (size_t j = open + 1; j < r->ntoks; j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[')) && r->match[j] > (long)j)
            j = (size_t)r->match[j];
        else if (is_punct(r, j, ';') || is_punct(r, j, '{') || is_punct(r, j, '}'))
            return 0;
        else if (is_punct(r, j, '<'))
            depth++;
        else if (is_punct(r, j, '>') && depth > 0)
            depth--;
        else if (is_punct(r, j, '>'))
            return j;
        else if (is_punct(r, j, ',') && depth == 0 && (*ncommas)++ < 4)
            commas[*ncommas - 1] = j;
    }
    return 0;
}

/* Does the file declare a `name` of its own (`struct texture`, `class
 * texture`, `using texture =`, `typedef ... texture;`, `template <...>
 * struct texture`)? */
static bool file_declares(const rw *r, const char *name)
{
    static const char *const keys[] = {"struct", "class", "union", "enum", "using", "typedef"};
    for (size_t i = 1; i < r->ntoks; i++) {
        if (!tok_is(r, i, name))
            continue;
        if (tok_is_one_of(r, i - 1, keys, sizeof keys / sizeof keys[0]))
            return true;
        if (is_punct(r, i + 1, ';') && i >= 2) { /* typedef T texture; */
            for (size_t k = i; k-- > 0 && !is_punct(r, k, ';') && !is_punct(r, k, '{') && !is_punct(r, k, '}');)
                if (tok_is(r, k, "typedef"))
                    return true;
        }
    }
    return false;
}

/* Does the file read textures or surfaces through references? */
static bool file_uses_references(const rw *r)
{
    static const char *const words[] = {"tex1Dfetch",      "tex1D",       "tex2D",       "tex3D",
                                        "tex1DLayered",    "tex2DLayered", "texCubemap",  "tex2Dgather",
                                        "cudaBindTexture", "cudaBindTexture2D", "cudaBindTextureToArray",
                                        "cudaUnbindTexture", "surf1Dread", "surf2Dread", "surf3Dread",
                                        "surf1Dwrite",     "surf2Dwrite", "surf3Dwrite", "cudaBindSurfaceToArray"};
    for (size_t i = 0; i < r->ntoks; i++)
        if (r->toks[i].kind == TK_IDENT && tok_is_one_of(r, i, words, sizeof words / sizeof words[0]))
            return true;
    return false;
}

/* The argument between tokens (from, to) exclusive is one token that is a
 * number or starts with `prefix`. */
static bool arg_is(const rw *r, size_t from, size_t to, const char *prefix)
{
    return to == from + 2 && (r->toks[from + 1].kind == TK_NUMBER || tok_starts_with(r, from + 1, prefix));
}

int rewrite_removed_reference(rw *r, size_t i)
{
    const bool texture = tok_is(r, i, "texture");
    if (!texture && !tok_is(r, i, "surface"))
        return 0;
    static const char *const before[] = {"::", ".", "->", "struct", "class", "union", "enum", "typename", "template"};
    if (i > 0 && (tok_is_one_of(r, i - 1, before, sizeof before / sizeof before[0]) || is_punct(r, i - 1, '.')))
        return 0;
    if (!is_punct(r, i + 1, '<'))
        return 0;
    size_t commas[4], ncommas = 0;
    const size_t close = angle_close(r, i + 1, commas, &ncommas);
    if (close == 0 || ncommas > 2 || close == i + 2)
        return 0;
    /* a declarator: a name, then the end of it */
    if (!is_ident(r, close + 1) ||
        !(is_punct(r, close + 2, ';') || is_punct(r, close + 2, ',') || is_punct(r, close + 2, '=') ||
          is_punct(r, close + 2, '[')))
        return 0;
    if (ncommas >= 1) {
        const size_t end = ncommas >= 2 ? commas[1] : close;
        if (!arg_is(r, commas[0], end, texture ? "cudaTextureType" : "cudaSurfaceType"))
            return 0;
    }
    if (ncommas == 2 && !arg_is(r, commas[1], close, "cudaReadMode"))
        return 0;
    if (ncommas == 0 && !file_uses_references(r))
        return 0;
    if (file_declares(r, texture ? "texture" : "surface"))
        return 0;
    return add_edit_str(r, r->toks[i].start, r->toks[i].end,
                        texture ? "::simtlab_emu::removed_texture_reference"
                                : "::simtlab_emu::removed_surface_reference");
}
