// The hashing and bucketing ops of TensorFlow 1.15 that feature columns emit: StringToHashBucket,
// StringToHashBucketFast, StringToHashBucketStrong (string_ops.cc), Bucketize (math_ops.cc) and
// tf.contrib.boosted_trees' BucketizeWithInputBoundaries, with TensorFlow's names, attrs and shapes.
#include "ops/op_families.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "ops/common_shape_fns.h"

#include <string>
#include <vector>

namespace tstudio {

namespace {

OpDefBuilder hashBucketOp(const char* name, const char* inputName, std::string summary)
{
    OpDefBuilder op(name);
    op.summary(std::move(summary))
        .category(op_category::kArray)
        .input(std::string(inputName) + ": string")
        .output("output: int64")
        .attr("num_buckets: int >= 1")
        .doc("num_buckets", "How many buckets the hashes are spread over; the output lies in [0, num_buckets).")
        .doc("output", "The bucket of each string, an int64 tensor of the input's shape.");
    return op;
}

} // namespace

Status registerHashBucketOps(OpRegistry& registry)
{
    std::vector<OpDefBuilder> ops;
    {
        OpDefBuilder op = hashBucketOp("StringToHashBucket", "string_tensor",
                                       "Deprecated: the bucket of each string from TensorFlow's legacy 64-bit hash "
                                       "(MurmurHash64A with a fixed seed) modulo num_buckets.");
        op.description("Kept for old graphs; StringToHashBucketFast gives another, faster and portable, bucketing.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = hashBucketOp("StringToHashBucketFast", "input",
                                       "The bucket of each string: FarmHash's Fingerprint64 modulo num_buckets.");
        op.description("The fingerprint is the same on every platform and in every release, so buckets are stable "
                       "across exports; it is not resistant to inputs chosen to collide (see "
                       "StringToHashBucketStrong).");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = hashBucketOp("StringToHashBucketStrong", "input",
                                       "The bucket of each string: a keyed SipHash-2-4 modulo num_buckets.");
        op.attr("key: list(int)")
            .doc("key", "The two 64-bit words of the 128-bit SipHash key (exactly two values).")
            .description("Without the key an adversary cannot choose strings that fall into one bucket; it costs "
                         "about four times the fast hash.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op("Bucketize");
        op.summary("The bucket index of every element: how many of the sorted boundaries are less than or equal "
                   "to it.")
            .description("Bucket i holds the values in [boundaries[i-1], boundaries[i]); values below the first "
                         "boundary are in bucket 0, values at or above the last in bucket len(boundaries).")
            .category(op_category::kMath)
            .input("input: T")
            .output("output: int32")
            .attr("T: {int32, int64, float, double}")
            .attr("boundaries: list(float)")
            .doc("boundaries", "The bucket boundaries, sorted ascending.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op("BucketizeWithInputBoundaries");
        op.summary("As Bucketize, with the boundaries given as a float tensor (tf.contrib.boosted_trees).")
            .description("The boundaries are converted to the input's type before the comparison and must then be "
                         "sorted ascending.")
            .category(op_category::kMath)
            .input("input: T")
            .input("boundaries: float")
            .output("output: int32")
            .attr("T: {int32, int64, float, double}");
        ops.push_back(std::move(op));
    }
    for (const OpDefBuilder& op : ops) {
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(op.opName(), unchangedShape); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
