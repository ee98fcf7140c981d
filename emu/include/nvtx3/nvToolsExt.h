/* simtlab CPU emulator — <nvtx3/nvToolsExt.h>: the NVTX v3 C API (ranges,
 * markers, domains, registered strings, categories, thread and resource
 * names) as NVTX behaves when no tool is attached to the program: every
 * call does nothing and returns what NVTX returns then. Push and pop return
 * NVTX_NO_PUSH_POP_TRACKING (-2: no tool keeps a stack), a range start
 * returns range id 0, and the calls that create a domain, a registered
 * string or a resource return a null handle, which every other call accepts.
 * There is no tool to attach to the emulator, so that is all NVTX does here.
 *
 * Written from the NVTX API documentation; the names, numbers and the
 * layout of the attribute structures are NVTX's, so that code which fills
 * them (version, size, colour, payload, message) compiles unchanged. C and
 * C++; like NVTX v3 it is header-only (nothing to link: -lnvToolsExt is not
 * needed, and the program must not pass it to slcc).
 * Test: emu.test_emu_thrust (nvtx). */
#ifndef SIMTLAB_EMU_NVTOOLSEXT_H
#define SIMTLAB_EMU_NVTOOLSEXT_H
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake). */
#if defined(SIMTLAB_EMU_WITHOUT_NVTX)
#error "simtlab emulator: this emulator was built without NVTX: configure it with -DSIMTLAB_EMU_WITH_NVTX=ON"
#endif

#include <stddef.h>
#include <stdint.h>

#ifndef NVTX_VERSION
#define NVTX_VERSION 3
#endif
#define NVTX_VERSION_0 0
#define NVTX_VERSION_1 1
#define NVTX_VERSION_2 2
#define NVTX_VERSION_3 3

#define NVTX_API
#define NVTX_DECLSPEC
#define NVTX_INLINE_STATIC static inline
#define NVTX_LINKONCE_DEFINE_FUNCTION static inline

#ifdef __cplusplus
#define NVTX_STATIC_CAST(type, value) (static_cast<type>(value))
#define NVTX_REINTERPRET_CAST(type, value) (reinterpret_cast<type>(value))
#define NVTX_NULLPTR nullptr
#else
#define NVTX_STATIC_CAST(type, value) ((type)(value))
#define NVTX_REINTERPRET_CAST(type, value) ((type)(value))
#define NVTX_NULLPTR NULL
#endif

/* The results of the tool loader's initialisation (nvtxInitialize). */
#define NVTX_SUCCESS 0
#define NVTX_FAIL 1
#define NVTX_ERR_INIT_LOAD_PROPERTY 2
#define NVTX_ERR_INIT_ACCESS_LIBRARY 3
#define NVTX_ERR_INIT_LOAD_LIBRARY 4
#define NVTX_ERR_INIT_MISSING_LIBRARY_ENTRY_POINT 5
#define NVTX_ERR_INIT_FAILED_LIBRARY_ENTRY_POINT 6
#define NVTX_ERR_NO_INJECTION_LIBRARY_AVAILABLE 7

/* What push and pop return when no tool tracks the stack. */
#define NVTX_NO_PUSH_POP_TRACKING (NVTX_STATIC_CAST(int, -2))

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st nvtxDomainRegistration;
typedef nvtxDomainRegistration *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st nvtxStringRegistration;
typedef nvtxStringRegistration *nvtxStringHandle_t;

typedef enum nvtxColorType_t {
    NVTX_COLOR_UNKNOWN = 0,
    NVTX_COLOR_ARGB = 1
} nvtxColorType_t;

typedef enum nvtxMessageType_t {
    NVTX_MESSAGE_UNKNOWN = 0,
    NVTX_MESSAGE_TYPE_ASCII = 1,
    NVTX_MESSAGE_TYPE_UNICODE = 2,
    NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;

typedef union nvtxMessageValue_t {
    const char *ascii;
    const wchar_t *unicode;
    nvtxStringHandle_t registered;
} nvtxMessageValue_t;

typedef enum nvtxPayloadType_t {
    NVTX_PAYLOAD_UNKNOWN = 0,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
    NVTX_PAYLOAD_TYPE_INT64 = 2,
    NVTX_PAYLOAD_TYPE_DOUBLE = 3,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
    NVTX_PAYLOAD_TYPE_INT32 = 5,
    NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

/* The event attributes (version 2 of the structure, NVTX 2 and 3): zero
 * it, set version to NVTX_VERSION and size to
 * NVTX_EVENT_ATTRIB_STRUCT_SIZE, then the fields wanted. */
typedef struct nvtxEventAttributes_v2 {
    uint16_t version;
    uint16_t size;
    uint32_t category;
    int32_t colorType;  /* nvtxColorType_t */
    uint32_t color;     /* ARGB */
    int32_t payloadType; /* nvtxPayloadType_t */
    int32_t reserved0;
    union payload_t {
        uint64_t ullValue;
        int64_t llValue;
        double dValue;
        uint32_t uiValue;
        int32_t iValue;
        float fValue;
    } payload;
    int32_t messageType; /* nvtxMessageType_t */
    nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef struct nvtxEventAttributes_v2 nvtxEventAttributes_t;

#define NVTX_EVENT_ATTRIB_STRUCT_SIZE (NVTX_STATIC_CAST(uint16_t, sizeof(nvtxEventAttributes_t)))

/* Resources (objects a tool may name: threads, CUDA streams, ...). */
typedef struct nvtxResourceHandle *nvtxResourceHandle_t;

#define NVTX_RESOURCE_MAKE_TYPE(CLASS, INDEX) ((((uint32_t)(NVTX_RESOURCE_CLASS_##CLASS)) << 16) | ((uint32_t)(INDEX)))
#define NVTX_RESOURCE_CLASS_GENERIC 1

typedef enum nvtxResourceGenericType_t {
    NVTX_RESOURCE_TYPE_UNKNOWN = 0,
    NVTX_RESOURCE_TYPE_GENERIC_POINTER = NVTX_RESOURCE_MAKE_TYPE(GENERIC, 1),
    NVTX_RESOURCE_TYPE_GENERIC_HANDLE = NVTX_RESOURCE_MAKE_TYPE(GENERIC, 2),
    NVTX_RESOURCE_TYPE_GENERIC_THREAD_NATIVE = NVTX_RESOURCE_MAKE_TYPE(GENERIC, 3),
    NVTX_RESOURCE_TYPE_GENERIC_THREAD_POSIX = NVTX_RESOURCE_MAKE_TYPE(GENERIC, 4)
} nvtxResourceGenericType_t;

typedef struct nvtxResourceAttributes_v0 {
    uint16_t version;
    uint16_t size;
    int32_t identifierType; /* a resource type */
    union identifier_t {
        const void *pValue;
        uint64_t ullValue;
    } identifier;
    int32_t messageType;
    nvtxMessageValue_t message;
} nvtxResourceAttributes_v0;
typedef struct nvtxResourceAttributes_v0 nvtxResourceAttributes_t;

#define NVTX_RESOURCE_ATTRIB_STRUCT_SIZE (NVTX_STATIC_CAST(uint16_t, sizeof(nvtxResourceAttributes_t)))

/* ---- the calls: no tool is attached, so each does nothing ------------- */

NVTX_INLINE_STATIC void nvtxInitialize(const void *reserved) { (void)reserved; }

/* markers */
NVTX_INLINE_STATIC void nvtxDomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *eventAttrib)
{
    (void)domain;
    (void)eventAttrib;
}
NVTX_INLINE_STATIC void nvtxMarkEx(const nvtxEventAttributes_t *eventAttrib) { (void)eventAttrib; }
NVTX_INLINE_STATIC void nvtxMarkA(const char *message) { (void)message; }
NVTX_INLINE_STATIC void nvtxMarkW(const wchar_t *message) { (void)message; }

/* start/end ranges: id 0 is what an untracked start returns */
NVTX_INLINE_STATIC nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t domain,
                                                        const nvtxEventAttributes_t *eventAttrib)
{
    (void)domain;
    (void)eventAttrib;
    return NVTX_STATIC_CAST(nvtxRangeId_t, 0);
}
NVTX_INLINE_STATIC nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *eventAttrib)
{
    (void)eventAttrib;
    return NVTX_STATIC_CAST(nvtxRangeId_t, 0);
}
NVTX_INLINE_STATIC nvtxRangeId_t nvtxRangeStartA(const char *message)
{
    (void)message;
    return NVTX_STATIC_CAST(nvtxRangeId_t, 0);
}
NVTX_INLINE_STATIC nvtxRangeId_t nvtxRangeStartW(const wchar_t *message)
{
    (void)message;
    return NVTX_STATIC_CAST(nvtxRangeId_t, 0);
}
NVTX_INLINE_STATIC void nvtxDomainRangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id)
{
    (void)domain;
    (void)id;
}
NVTX_INLINE_STATIC void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }

/* push/pop ranges: no tool keeps the stack */
NVTX_INLINE_STATIC int nvtxDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *eventAttrib)
{
    (void)domain;
    (void)eventAttrib;
    return NVTX_NO_PUSH_POP_TRACKING;
}
NVTX_INLINE_STATIC int nvtxRangePushEx(const nvtxEventAttributes_t *eventAttrib)
{
    (void)eventAttrib;
    return NVTX_NO_PUSH_POP_TRACKING;
}
NVTX_INLINE_STATIC int nvtxRangePushA(const char *message)
{
    (void)message;
    return NVTX_NO_PUSH_POP_TRACKING;
}
NVTX_INLINE_STATIC int nvtxRangePushW(const wchar_t *message)
{
    (void)message;
    return NVTX_NO_PUSH_POP_TRACKING;
}
NVTX_INLINE_STATIC int nvtxDomainRangePop(nvtxDomainHandle_t domain)
{
    (void)domain;
    return NVTX_NO_PUSH_POP_TRACKING;
}
NVTX_INLINE_STATIC int nvtxRangePop(void) { return NVTX_NO_PUSH_POP_TRACKING; }

/* resources */
NVTX_INLINE_STATIC nvtxResourceHandle_t nvtxDomainResourceCreate(nvtxDomainHandle_t domain,
                                                                 nvtxResourceAttributes_t *attribs)
{
    (void)domain;
    (void)attribs;
    return NVTX_NULLPTR;
}
NVTX_INLINE_STATIC void nvtxDomainResourceDestroy(nvtxResourceHandle_t resource) { (void)resource; }

/* names of categories and OS threads */
NVTX_INLINE_STATIC void nvtxDomainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category, const char *name)
{
    (void)domain;
    (void)category;
    (void)name;
}
NVTX_INLINE_STATIC void nvtxDomainNameCategoryW(nvtxDomainHandle_t domain, uint32_t category, const wchar_t *name)
{
    (void)domain;
    (void)category;
    (void)name;
}
NVTX_INLINE_STATIC void nvtxNameCategoryA(uint32_t category, const char *name)
{
    (void)category;
    (void)name;
}
NVTX_INLINE_STATIC void nvtxNameCategoryW(uint32_t category, const wchar_t *name)
{
    (void)category;
    (void)name;
}
NVTX_INLINE_STATIC void nvtxNameOsThreadA(uint32_t threadId, const char *name)
{
    (void)threadId;
    (void)name;
}
NVTX_INLINE_STATIC void nvtxNameOsThreadW(uint32_t threadId, const wchar_t *name)
{
    (void)threadId;
    (void)name;
}

/* registered strings and domains: null handles, accepted everywhere */
NVTX_INLINE_STATIC nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t domain, const char *string)
{
    (void)domain;
    (void)string;
    return NVTX_NULLPTR;
}
NVTX_INLINE_STATIC nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t domain, const wchar_t *string)
{
    (void)domain;
    (void)string;
    return NVTX_NULLPTR;
}
NVTX_INLINE_STATIC nvtxDomainHandle_t nvtxDomainCreateA(const char *name)
{
    (void)name;
    return NVTX_NULLPTR;
}
NVTX_INLINE_STATIC nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *name)
{
    (void)name;
    return NVTX_NULLPTR;
}
NVTX_INLINE_STATIC void nvtxDomainDestroy(nvtxDomainHandle_t domain) { (void)domain; }

#ifdef __cplusplus
} /* extern "C" */
#endif

/* The unsuffixed names, as NVTX maps them (ASCII unless UNICODE). */
#ifdef UNICODE
#define nvtxMark nvtxMarkW
#define nvtxRangeStart nvtxRangeStartW
#define nvtxRangePush nvtxRangePushW
#define nvtxNameCategory nvtxNameCategoryW
#define nvtxNameOsThread nvtxNameOsThreadW
#define nvtxDomainNameCategory nvtxDomainNameCategoryW
#define nvtxDomainRegisterString nvtxDomainRegisterStringW
#define nvtxDomainCreate nvtxDomainCreateW
#else
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxRangePush nvtxRangePushA
#define nvtxNameCategory nvtxNameCategoryA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxDomainNameCategory nvtxDomainNameCategoryA
#define nvtxDomainRegisterString nvtxDomainRegisterStringA
#define nvtxDomainCreate nvtxDomainCreateA
#endif

#endif /* SIMTLAB_EMU_NVTOOLSEXT_H */
