// Tests for metaGraphContents (model/meta_graph_contents.h): a MetaGraphDef made here with every
// kind of collection, a SaverDef, tags, assets and a stripped op list read back as `tstudio inspect`
// shows it; and TensorFlow 1.3's own MNIST .meta (tf1-mnist-book; skipped without the fixtures).
#include "fixture_paths.h"
#include "model/meta_graph.h"
#include "model/meta_graph_contents.h"
#include "model_test_support.h"
#include "proto/control_flow.pb.h"
#include "proto/variable.pb.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

const MetaGraphContents::Collection* find(const MetaGraphContents& m, const std::string& name)
{
    for (const auto& c : m.collections)
        if (c.name == name)
            return &c;
    return nullptr;
}

} // namespace

class TestMetaGraphContents : public QObject {
    Q_OBJECT
private slots:
    void everyPartOfAMadeMetaGraph()
    {
        tf::MetaGraphDef meta;
        auto* info = meta.mutable_meta_info_def();
        info->set_tensorflow_version("1.15.0");
        info->set_tensorflow_git_version("v1.15.0-rc3");
        info->add_tags("serve");
        info->set_stripped_default_attrs(true);
        info->mutable_stripped_op_list()->add_op()->set_name("MatMul");
        info->mutable_stripped_op_list()->add_op()->set_name("VariableV2");
        auto* saver = meta.mutable_saver_def();
        saver->set_filename_tensor_name("save/Const:0");
        saver->set_save_tensor_name("save/control_dependency:0");
        saver->set_restore_op_name("save/restore_all");
        saver->set_max_to_keep(3);
        saver->set_keep_checkpoint_every_n_hours(2.5f);
        saver->set_sharded(true);
        saver->set_version(tf::SaverDef::V2);
        auto& collections = *meta.mutable_collection_def();
        collections["train_op"].mutable_node_list()->add_value("train");
        tf::VariableDef variable;
        variable.set_variable_name("w:0");
        collections["trainable_variables"].mutable_bytes_list()->add_value(variable.SerializeAsString());
        collections["trainable_variables"].mutable_bytes_list()->add_value(std::string("\xff\x01", 2));
        collections["steps"].mutable_int64_list()->add_value(42);
        collections["rates"].mutable_float_list()->add_value(0.5f);
        collections["notes"].mutable_bytes_list()->add_value("hello");
        tf::CondContextDef cond;
        cond.set_context_name("cond/cond_text");
        cond.set_pred_name("cond/pred_id:0");
        cond.set_branch(1);
        collections["cond_context"].mutable_bytes_list()->add_value(cond.SerializeAsString());
        auto* asset = meta.add_asset_file_def();
        asset->mutable_tensor_info()->set_name("asset_path:0");
        asset->set_filename("vocab.txt");

        const MetaGraphContents m = metaGraphContents(meta);
        QCOMPARE(m.tensorflowVersion, std::string("1.15.0"));
        QCOMPARE(m.tags, std::vector<std::string>{"serve"});
        QVERIFY(m.strippedDefaultAttrs);
        QCOMPARE(m.strippedOps, (std::vector<std::string>{"MatMul", "VariableV2"}));
        QVERIFY(m.hasSaver);
        QCOMPARE(m.saver.version, std::string("V2"));
        QCOMPARE(m.saver.maxToKeep, 3);
        QVERIFY(m.saver.sharded);
        QCOMPARE(m.saver.restoreOp, std::string("save/restore_all"));
        // Sorted by name.
        std::vector<std::string> names;
        for (const auto& c : m.collections)
            names.push_back(c.name);
        QCOMPARE(names, (std::vector<std::string>{"cond_context", "notes", "rates", "steps", "train_op",
                                                  "trainable_variables"}));
        QCOMPARE(find(m, "train_op")->members, std::vector<std::string>{"train"});
        QCOMPARE(find(m, "train_op")->kind, std::string("node_list"));
        const auto* variables = find(m, "trainable_variables");
        QVERIFY(variables->variableDefs);
        QCOMPARE(variables->members.at(0), std::string("w:0"));
        QCOMPARE(variables->members.at(1), std::string("<unparsable VariableDef, 2 bytes>"));
        QCOMPARE(find(m, "steps")->members, std::vector<std::string>{"42"});
        QCOMPARE(find(m, "rates")->members, std::vector<std::string>{"0.5"});
        QCOMPARE(find(m, "notes")->members, std::vector<std::string>{"hello"});
        QCOMPARE(find(m, "cond_context")->members,
                 std::vector<std::string>{"cond/cond_text (true branch of cond/pred_id:0)"});
        QCOMPARE(m.assets.size(), std::size_t{1});
        QCOMPARE(m.assets[0].filename, std::string("vocab.txt"));

        tf::MetaGraphDef empty;
        const MetaGraphContents none = metaGraphContents(empty);
        QVERIFY(!none.hasSaver);
        QVERIFY(none.collections.empty());
    }

    void tensorflowsMnistMetaGraph()
    {
        const std::string path = fixturePath("tf1-mnist-book/mnist_model-29001.meta");
        if (path.empty())
            QSKIP(missingFixture("tf1-mnist-book/mnist_model-29001.meta"));
        auto meta = readMetaGraphFile(path);
        QVERIFY2(meta, err(meta));
        const MetaGraphContents m = metaGraphContents(*meta);
        QCOMPARE(m.tensorflowVersion, std::string("1.3.0"));
        QCOMPARE(m.saver.version, std::string("V2"));
        QCOMPARE(m.saver.maxToKeep, 5);
        QCOMPARE(m.saver.filenameTensor, std::string("save/Const:0"));
        QCOMPARE(m.strippedOps.size(), std::size_t{44});
        const std::vector<std::string> trainable{"layer1/weights:0", "layer1/biases:0", "layer2/weights:0",
                                                 "layer2/biases:0"};
        QCOMPARE(find(m, "trainable_variables")->members, trainable);
        QCOMPARE(find(m, "train_op")->members, std::vector<std::string>{"GradientDescent"});
        QCOMPARE(find(m, "cond_context")->members.size(), std::size_t{16});
        QCOMPARE(find(m, "cond_context")->members.front(),
                 std::string("cond/cond_text (true branch of cond/pred_id:0)"));
    }
};

QTEST_GUILESS_MAIN(TestMetaGraphContents)
#include "test_meta_graph_contents.moc"
