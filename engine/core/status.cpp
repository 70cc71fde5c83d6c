// Status: names of codes and message formatting.
#include "core/status.h"

namespace tstudio {

std::string_view statusCodeName(StatusCode code)
{
    switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCancelled: return "Cancelled";
    case StatusCode::kUnknown: return "Unknown";
    case StatusCode::kInvalidArgument: return "InvalidArgument";
    case StatusCode::kDeadlineExceeded: return "DeadlineExceeded";
    case StatusCode::kNotFound: return "NotFound";
    case StatusCode::kAlreadyExists: return "AlreadyExists";
    case StatusCode::kPermissionDenied: return "PermissionDenied";
    case StatusCode::kResourceExhausted: return "ResourceExhausted";
    case StatusCode::kFailedPrecondition: return "FailedPrecondition";
    case StatusCode::kAborted: return "Aborted";
    case StatusCode::kOutOfRange: return "OutOfRange";
    case StatusCode::kUnimplemented: return "Unimplemented";
    case StatusCode::kInternal: return "Internal";
    case StatusCode::kUnavailable: return "Unavailable";
    case StatusCode::kDataLoss: return "DataLoss";
    }
    return "Unknown";
}

Status::Status(StatusCode code, std::string message)
    : m_code(code), m_message(code == StatusCode::kOk ? std::string() : std::move(message))
{
}

std::string Status::toString() const
{
    if (isOk())
        return "OK";
    std::string out(statusCodeName(m_code));
    out += ": ";
    out += m_message;
    return out;
}

Status Status::withContext(std::string_view context) const
{
    if (isOk())
        return *this;
    // The same context twice says nothing more (a call kernel and the executor both name the node).
    if (m_message.size() > context.size() + 1 && m_message.starts_with(context) &&
        std::string_view(m_message).substr(context.size(), 2) == ": ")
        return *this;
    std::string message(context);
    message += ": ";
    message += m_message;
    return {m_code, std::move(message)};
}

Status cancelledError(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
Status invalidArgumentError(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
Status notFoundError(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
Status permissionDeniedError(std::string m) { return {StatusCode::kPermissionDenied, std::move(m)}; }
Status resourceExhaustedError(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
Status failedPreconditionError(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
Status outOfRangeError(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
Status unimplementedError(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
Status internalError(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
Status unavailableError(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
Status dataLossError(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }

} // namespace tstudio
