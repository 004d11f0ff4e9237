// What a test of app code needs beside the kit: the front ends' types (Request, NetworkError,
// HTTPSessionManager) without further imports.
@_exported import AFStyle
@_exported import Chain
