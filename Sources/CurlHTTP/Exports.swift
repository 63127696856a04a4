// Requests and responses carry the header fields the HTTP server uses too.
@_exported import HTTPFields
