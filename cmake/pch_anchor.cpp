// The one source of workbook_pch_o0 (cmake/precompiled_headers.cmake): a target needs a source to build its
// precompiled header, which other targets then reuse. Nothing links this object.
