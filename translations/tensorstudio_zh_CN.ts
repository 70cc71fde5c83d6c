<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CommandLine</name>
    <message>
        <source>TensorStudio: an IDE for TensorFlow 1.x dataflow graphs.</source>
        <translation>TensorStudio：面向 TensorFlow 1.x 数据流图的集成开发环境。</translation>
    </message>
    <message>
        <source>Render the window to FILE.png offscreen and exit.</source>
        <translation>在屏幕外将窗口渲染为 FILE.png，然后退出。</translation>
    </message>
    <message>
        <source>UI language for this run: en or zh_CN (not saved).</source>
        <translation>本次运行使用的界面语言：en 或 zh_CN（不保存）。</translation>
    </message>
    <message>
        <source>Theme for this run: light or dark (not saved).</source>
        <translation>本次运行使用的主题：light 或 dark（不保存）。</translation>
    </message>
    <message>
        <source>Window size for --screenshot (default 1280x800).</source>
        <translation>--screenshot 使用的窗口尺寸（默认为 1280x800）。</translation>
    </message>
    <message>
        <source>Files or folders to open.</source>
        <translation>要打开的文件或文件夹。</translation>
    </message>
    <message>
        <source>With --panel graph: expand these name scopes (comma-separated).</source>
        <translation>配合 --panel graph：展开这些名称作用域（以逗号分隔）。</translation>
    </message>
    <message>
        <source>With --panel graph: structure, device, placed, time, memory or runnable.</source>
        <translation>配合 --panel graph：structure、device、placed、time、memory 或 runnable。</translation>
    </message>
    <message>
        <source>With --panel graph: lay out from left to right.</source>
        <translation>配合 --panel graph：从左到右布局。</translation>
    </message>
    <message>
        <source>Load and lay out FILE without a window and print timings.</source>
        <translation>不打开窗口，加载并布局 FILE，然后打印耗时。</translation>
    </message>
    <message>
        <source>Edit an N-node graph in the node editor without a window and print timings.</source>
        <translation>不打开窗口，在节点编辑器中编辑 N 个节点的计算图并打印耗时。</translation>
    </message>
    <message>
        <source>With --panel editor and --select: capture the Evaluate dialog of that node.</source>
        <translation>配合 --panel editor 和 --select：截取该节点的求值对话框。</translation>
    </message>
    <message>
        <source>Redraw an N-point scalar chart with smoothing and print timings.</source>
        <translation>重绘一个含 N 个点、带平滑的标量图表并打印耗时。</translation>
    </message>
    <message>
        <source>Open LOGDIR in a dashboard and print the time to the first chart.</source>
        <translation>在仪表板中打开 LOGDIR 并打印显示第一个图表所需的时间。</translation>
    </message>
    <message>
        <source>Train PROJECT from the Training panel with the dashboard following and print the GUI thread&apos;s stalls.</source>
        <translation>在训练面板中训练 PROJECT，同时由仪表板跟踪，并打印 GUI 线程的停顿。</translation>
    </message>
    <message>
        <source>Train PROJECT with tstudio train and from the Training panel with the dashboard following, and print both speeds.</source>
        <translation>分别用 tstudio train 和训练面板（仪表板跟踪）训练 PROJECT，并打印两者的速度。</translation>
    </message>
    <message>
        <source>With --bench-live or --bench-train: steps to train (default 2000).</source>
        <translation>配合 --bench-live 或 --bench-train：训练的步数（默认 2000）。</translation>
    </message>
    <message>
        <source>With --bench-live or --bench-train: the MNIST folder, when the project needs one.</source>
        <translation>配合 --bench-live 或 --bench-train：项目需要时使用的 MNIST 文件夹。</translation>
    </message>
    <message>
        <source>Open TRACE in the profiler and print the time to the first timeline and the frame times of pans and zooms.</source>
        <translation>在性能分析器中打开 TRACE，并打印显示第一个时间线所需的时间以及平移和缩放的帧时间。</translation>
    </message>
    <message>
        <source>With --panel training, profiler or debugger: train the open project to step N (into a temporary log directory; profiler: step 3 is profiled) before capturing.</source>
        <translation>配合 --panel training、profiler 或 debugger：截图前将打开的项目训练到第 N 步（写入临时日志目录；profiler：对第 3 步进行性能分析）。</translation>
    </message>
    <message>
        <source>With --train-steps or --panel debugger: the MNIST folder of a project whose Dataset node reads one.</source>
        <translation>配合 --train-steps 或 --panel debugger：项目的 Dataset 节点读取的 MNIST 文件夹。</translation>
    </message>
    <message>
        <source>With --panel training and --train-steps: capture while the run trains, once it passes step N (the dashboard that follows it on --tab), then stop it.</source>
        <translation>与 --panel training 和 --train-steps 一起使用：在训练进行中、越过第 N 步后截图（跟随该运行的仪表板，显示 --tab 指定的标签页），然后停止训练。</translation>
    </message>
    <message>
        <source>With --panel training and --train-steps: train on N processes under mpirun on this machine (Run on N processes) instead of in this process; with --distributed-dialog: the number the dialog shows.</source>
        <translation>与 --panel training 和 --train-steps 一起使用：在本机用 mpirun 在 N 个进程上训练（“在 N 个进程上运行”），而不是在本进程内训练；与 --distributed-dialog 一起使用：对话框中显示的进程数。</translation>
    </message>
    <message>
        <source>With --panel training: capture the Run on N processes dialog.</source>
        <translation>与 --panel training 一起使用：截取“在 N 个进程上运行”对话框。</translation>
    </message>
    <message>
        <source>Open the spirals example project in the node editor (F5 trains it).</source>
        <translation>在节点编辑器中打开双螺旋示例项目（按 F5 训练）。</translation>
    </message>
    <message>
        <source>Draw the graph file given (with --left-to-right: laid out left to right) to FILE (.png or .svg) as the graph viewer&apos;s Export image does, and exit.</source>
        <translation>将给定的计算图文件按计算图查看器“导出图像”的方式绘制到 FILE（.png 或 .svg）（配合 --left-to-right：从左到右布局），然后退出。</translation>
    </message>
    <message>
        <source>Write tensorstudio&apos;s manual page (groff&apos;s man macros, made from these options) to FILE (&apos;-&apos;: standard output) and exit.</source>
        <translation>将 tensorstudio 的手册页（groff 的 man 宏，由这些选项生成）写入 FILE（&apos;-&apos;：标准输出），然后退出。</translation>
    </message>
    <message>
        <source>Open a new window even when TensorStudio is already running (otherwise the files go to the running one).</source>
        <translation>即使 TensorStudio 已在运行，也打开一个新窗口（否则文件会交给正在运行的窗口）。</translation>
    </message>
    <message>
        <source>With --panel editor: capture Edit ▸ Import Graph… for FILE over the editor&apos;s graph (--find PLACEHOLDER=TENSOR wires one input).</source>
        <translation>与 --panel editor 一起：在编辑器的图上为 FILE 截取“编辑 ▸ 导入图…”对话框（--find PLACEHOLDER=TENSOR 连接一个输入）。</translation>
    </message>
    <message>
        <source>Open N points of 200 dimensions in the Projector tab and print the load and frame times.</source>
        <translation>在投影器标签页中打开 N 个 200 维的点，并打印加载时间和帧时间。</translation>
    </message>
    <message>
        <source>Open N hyperparameter sessions in the HParams tab and print the load and frame times.</source>
        <translation>在超参数标签页中打开 N 个超参数会话，并打印加载时间和帧时间。</translation>
    </message>
    <message>
        <source>Show panel NAME (console, training, start or welcome, document, graph, editor, dashboard, profiler, debugger, records, diff (File &gt; Compare of the two files given), value (the values of --select NODE or checkpoint tensor of the file), settings, about, help (the guide: --select PAGE, --find TEXT), shortcuts (--find TEXT)).</source>
        <translation>显示面板 NAME（console、training、start 或 welcome、document、graph、editor、dashboard、profiler、debugger、records、diff（对给出的两个文件执行 文件 &gt; 比较）、value（文件中 --select 所指节点或检查点张量的值）、settings、about、help（指南：--select PAGE、--find TEXT）、shortcuts（--find TEXT））。</translation>
    </message>
    <message>
        <source>With --panel graph, editor or profiler: select this node; with --panel debugger: the breakpoint to pause at (default op:MatMul); with --panel value: the Const node or checkpoint tensor to show.</source>
        <translation>配合 --panel graph、editor 或 profiler：选中此节点；配合 --panel debugger：要暂停的断点（默认 op:MatMul）；配合 --panel value：要显示的 Const 节点或检查点张量。</translation>
    </message>
    <message>
        <source>With --panel graph: find nodes whose name contains TEXT; with --panel debugger: the tensor to inspect; with --panel value: a NumPy slice of it.</source>
        <translation>配合 --panel graph：查找名称包含 TEXT 的节点；配合 --panel debugger：要查看的张量；配合 --panel value：它的 NumPy 切片。</translation>
    </message>
    <message>
        <source>With --panel dashboard: show this tab (scalars, images, graphs, distributions, histograms, text, audio, pr_curves, hparams, custom_scalars, projector); with --panel profiler: timeline, ops, scopes, nodes, advice or tfprof; with --panel debugger or value: the inspector&apos;s table, histogram, heatmap or images; with --panel graph: metagraph (the MetaGraph tab).</source>
        <translation>配合 --panel dashboard：显示此标签页（scalars、images、graphs、distributions、histograms、text、audio、pr_curves、hparams、custom_scalars、projector）；配合 --panel profiler：timeline、ops、scopes、nodes、advice 或 tfprof；配合 --panel debugger 或 value：检查器的 table、histogram、heatmap 或 images；配合 --panel graph：metagraph（MetaGraph 标签页）。</translation>
    </message>
    <message>
        <source>With --panel dashboard: view settings, comma-separated: ema:WEIGHT or mean:N (smoothing), envelope, pin:TAG, enlarge:TAG, link-images; for the projector perplexity:N, tsne (run to its end), 3d (PCA), no-images, search:PATTERN, point:N; for the hparams hparams:table|parallel|scatter, colour:COLUMN, hide:COLUMN, log:COLUMN, session:N, brush:COLUMN:LOW:HIGH; for custom scalars chart:CATEGORY:TITLE:REGEX (a new chart).</source>
        <translation>配合 --panel dashboard：视图设置，以逗号分隔：ema:权重 或 mean:N（平滑）、envelope、pin:标签、enlarge:标签、link-images；投影器可用 perplexity:N、tsne（运行至结束）、3d（PCA）、no-images、search:模式、point:N；超参数可用 hparams:table|parallel|scatter、colour:列、hide:列、log:列、session:N、brush:列:下限:上限；自定义标量可用 chart:类别:标题:正则表达式（新建图表）。</translation>
    </message>
</context>
<context>
    <name>ExampleGallery</name>
    <message>
        <source>MNIST test images and labels (idx files, .gz or unpacked)</source>
        <translation>MNIST 测试图像和标签（idx 文件，.gz 或已解压）</translation>
    </message>
    <message>
        <source>the four .gz files at</source>
        <translation>四个 .gz 文件</translation>
    </message>
    <message>
        <source>Two spirals</source>
        <translation>双螺旋</translation>
    </message>
    <message>
        <source>A 2-64-64-2 ReLU network learns to tell two interleaved spirals apart (Adam, 3,000 steps).</source>
        <translation>一个 2-64-64-2 的 ReLU 网络学习区分两条交错的螺旋线（Adam，3,000 步）。</translation>
    </message>
    <message>
        <source>generated as it trains, nothing to download</source>
        <translation>训练时生成，无需下载</translation>
    </message>
    <message>
        <source>MNIST, the book&apos;s network</source>
        <translation>MNIST，书中的网络</translation>
    </message>
    <message>
        <source>784-500-10 with L2 regularisation, a decaying learning rate and moving averages, as in chapter 5 of the TensorFlow book.</source>
        <translation>784-500-10 网络，带 L2 正则化、衰减的学习率和滑动平均，与《TensorFlow》一书第 5 章相同。</translation>
    </message>
    <message>
        <source>LeNet-5</source>
        <translation>LeNet-5</translation>
    </message>
    <message>
        <source>Two convolution and pooling layers and two dense layers classify handwritten digits (Adam 0.001).</source>
        <translation>两个卷积和池化层加两个全连接层，对手写数字进行分类（Adam 0.001）。</translation>
    </message>
    <message>
        <source>MNIST with evaluation</source>
        <translation>带评估的 MNIST</translation>
    </message>
    <message>
        <source>Batch norm, dropout, image and accuracy summaries, evaluation every 200 steps and export for serving.</source>
        <translation>批归一化、dropout、图像和准确率摘要，每 200 步评估一次，并导出用于部署服务。</translation>
    </message>
    <message>
        <source>PTB language model</source>
        <translation>PTB 语言模型</translation>
    </message>
    <message>
        <source>A two-layer LSTM of 200 units predicts the next word of the Penn Treebank (TensorFlow&apos;s PTB tutorial, small configuration).</source>
        <translation>一个 200 单元的两层 LSTM 预测 Penn Treebank 中的下一个词（TensorFlow 的 PTB 教程，small 配置）。</translation>
    </message>
    <message>
        <source>Penn Treebank text (ptb.train.txt, ptb.valid.txt)</source>
        <translation>Penn Treebank 文本（ptb.train.txt、ptb.valid.txt）</translation>
    </message>
    <message>
        <source>the data/ folder of</source>
        <translation>其中的 data/ 文件夹</translation>
    </message>
    <message>
        <source>ResNet-20 on CIFAR-10</source>
        <translation>CIFAR-10 上的 ResNet-20</translation>
    </message>
    <message>
        <source>A 20-layer residual network classifies 32×32 colour images into ten classes.</source>
        <translation>一个 20 层的残差网络将 32×32 的彩色图像分为十类。</translation>
    </message>
    <message>
        <source>CIFAR-10, binary version (data_batch_1.bin … data_batch_5.bin)</source>
        <translation>CIFAR-10，二进制版本（data_batch_1.bin … data_batch_5.bin）</translation>
    </message>
    <message>
        <source>the cifar-10-batches-bin folder of</source>
        <translation>其中的 cifar-10-batches-bin 文件夹</translation>
    </message>
    <message>
        <source>Get %1 %2.</source>
        <translation>请从 %2 获取%1。</translation>
    </message>
    <message>
        <source> and </source>
        <translation> 和 </translation>
    </message>
    <message>
        <source>Choose the folder that holds %1.</source>
        <translation>请选择包含 %1 的文件夹。</translation>
    </message>
    <message>
        <source>%1 is not a folder. Choose the folder that holds %2.</source>
        <translation>%1 不是文件夹。请选择包含 %2 的文件夹。</translation>
    </message>
    <message>
        <source>The folder %1 has no %2.</source>
        <translation>文件夹 %1 中没有 %2。</translation>
    </message>
    <message>
        <source> and no </source>
        <translation> 和 </translation>
    </message>
    <message>
        <source>The example project %1 is not in the examples folder (%2); set TSTUDIO_EXAMPLES_DIR to the folder that holds it.</source>
        <translation>示例项目 %1 不在示例文件夹（%2）中；请将 TSTUDIO_EXAMPLES_DIR 设置为包含它的文件夹。</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>Cannot create the folder %1 for the example&apos;s copy.</source>
        <translation>无法为示例的副本创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>word2vec</source>
        <translation>word2vec</translation>
    </message>
    <message>
        <source>Skip-gram embeddings of 10,000 words trained with NCE (TensorFlow&apos;s word2vec tutorial); the Projector labels them by word.</source>
        <translation>用 NCE 训练的 10,000 个词的 skip-gram 嵌入（TensorFlow 的 word2vec 教程）；投影器按词标注它们。</translation>
    </message>
    <message>
        <source>Penn Treebank text (ptb.train.txt)</source>
        <translation>Penn Treebank 文本（ptb.train.txt）</translation>
    </message>
    <message>
        <source>Sequence to sequence with attention</source>
        <translation>带注意力的序列到序列模型</translation>
    </message>
    <message>
        <source>An LSTM encoder-decoder with Luong attention learns to write sentences backwards; its attention is shown as images.</source>
        <translation>带 Luong 注意力的 LSTM 编码器-解码器学习把句子倒过来写；其注意力以图像显示。</translation>
    </message>
    <message>
        <source>made by the graph as it trains, nothing to download</source>
        <translation>由计算图在训练时生成，无需下载</translation>
    </message>
</context>
<context>
    <name>FileKind</name>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>GraphDef (binary)</source>
        <translation>GraphDef（二进制）</translation>
    </message>
    <message>
        <source>GraphDef (text)</source>
        <translation>GraphDef（文本）</translation>
    </message>
    <message>
        <source>MetaGraphDef (binary)</source>
        <translation>MetaGraphDef（二进制）</translation>
    </message>
    <message>
        <source>MetaGraphDef (text)</source>
        <translation>MetaGraphDef（文本）</translation>
    </message>
    <message>
        <source>SavedModel</source>
        <translation>SavedModel</translation>
    </message>
    <message>
        <source>Checkpoint (V2)</source>
        <translation>检查点（V2）</translation>
    </message>
    <message>
        <source>Checkpoint state file</source>
        <translation>检查点状态文件</translation>
    </message>
    <message>
        <source>Checkpoint (V1, legacy)</source>
        <translation>检查点（V1，旧版）</translation>
    </message>
    <message>
        <source>Event file</source>
        <translation>事件文件</translation>
    </message>
    <message>
        <source>Event log directory</source>
        <translation>事件日志目录</translation>
    </message>
    <message>
        <source>TFRecord</source>
        <translation>TFRecord</translation>
    </message>
    <message>
        <source>TensorStudio does not recognise this content.</source>
        <translation>TensorStudio 无法识别此内容。</translation>
    </message>
    <message>
        <source>A legacy V1 checkpoint (TensorFlow&apos;s tensor-slice tables). TensorStudio reads it: tstudio inspect lists its tensors and their values, and the Restore, RestoreSlice and RestoreV2 ops restore variables from it. This view shows its summary only.</source>
        <translation>旧版 V1 检查点（TensorFlow 的张量切片表）。TensorStudio 可以读取它：tstudio inspect 会列出其中的张量及其值，Restore、RestoreSlice 和 RestoreV2 算子可以从中恢复变量。此视图仅显示其摘要。</translation>
    </message>
    <message>
        <source>Recognised. This version of TensorStudio identifies this kind of file; viewing its contents is not available yet.</source>
        <translation>已识别。此版本的 TensorStudio 可以识别此类文件，但暂不支持查看其内容。</translation>
    </message>
    <message>
        <source>Graphs (*.pb *.pbtxt *.meta)</source>
        <translation>图 (*.pb *.pbtxt *.meta)</translation>
    </message>
    <message>
        <source>Checkpoints (*.index checkpoint)</source>
        <translation>检查点 (*.index checkpoint)</translation>
    </message>
    <message>
        <source>Event files (*tfevents*)</source>
        <translation>事件文件 (*tfevents*)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>TensorStudio project</source>
        <translation>TensorStudio 项目</translation>
    </message>
    <message>
        <source>Projects (*.tsproj)</source>
        <translation>项目 (*.tsproj)</translation>
    </message>
    <message>
        <source>Chrome trace (JSON)</source>
        <translation>Chrome 跟踪（JSON）</translation>
    </message>
    <message>
        <source>TFRecord files (*.tfrecord *.tfrecords)</source>
        <translation>TFRecord 文件 (*.tfrecord *.tfrecords)</translation>
    </message>
    <message>
        <source>tfprof profile (ProfileProto)</source>
        <translation>tfprof 性能剖析 (ProfileProto)</translation>
    </message>
    <message>
        <source>All supported files (*.tsproj *.pb *.pbtxt *.meta *.index checkpoint *tfevents* *.tfrecord *.tfrecords *.json *.json.gz profile_*)</source>
        <translation>所有支持的文件 (*.tsproj *.pb *.pbtxt *.meta *.index checkpoint *tfevents* *.tfrecord *.tfrecords *.json *.json.gz profile_*)</translation>
    </message>
    <message>
        <source>Profile traces (*.json *.json.gz profile_*)</source>
        <translation>性能跟踪 (*.json *.json.gz profile_*)</translation>
    </message>
</context>
<context>
    <name>GpuStatus</name>
    <message>
        <source>An NVIDIA GPU is here but cannot be used — training runs on the CPU</source>
        <translation>检测到 NVIDIA GPU，但无法使用 — 训练在 CPU 上运行</translation>
    </message>
    <message>
        <source>GPU found: %1 — training can run on the GPU</source>
        <translation>找到 GPU：%1 — 训练可在 GPU 上运行</translation>
    </message>
    <message>
        <source>%1 GPUs found (GPU 0: %2) — training can run on the GPU</source>
        <translation>找到 %1 个 GPU（GPU 0：%2）— 训练可在 GPU 上运行</translation>
    </message>
    <message>
        <source>This build has no GPU support — training runs on the CPU</source>
        <translation>此版本不支持 GPU — 训练在 CPU 上运行</translation>
    </message>
    <message>
        <source>CUDA_VISIBLE_DEVICES hides every GPU — training runs on the CPU</source>
        <translation>CUDA_VISIBLE_DEVICES 隐藏了所有 GPU — 训练在 CPU 上运行</translation>
    </message>
    <message>
        <source>No NVIDIA GPU driver found — training runs on the CPU</source>
        <translation>未找到 NVIDIA GPU 驱动程序 — 训练在 CPU 上运行</translation>
    </message>
    <message>
        <source>GPU %1: %2, compute capability %3.%4</source>
        <translation>GPU %1：%2，计算能力 %3.%4</translation>
    </message>
    <message>
        <source>%1 (details: %2)</source>
        <translation>%1（详情：%2）</translation>
    </message>
</context>
<context>
    <name>GraphColouring</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 微秒</translation>
    </message>
    <message>
        <source>Same structure</source>
        <translation>相同结构</translation>
    </message>
    <message>
        <source>No device</source>
        <translation>无设备</translation>
    </message>
    <message>
        <source>Placement not computed</source>
        <translation>尚未计算设备分配</translation>
    </message>
    <message>
        <source>No run metadata: run the graph with tracing or open an event file with RunMetadata</source>
        <translation>没有运行元数据：请带跟踪运行计算图，或打开包含 RunMetadata 的事件文件</translation>
    </message>
    <message>
        <source>Not in this step</source>
        <translation>不在此步中</translation>
    </message>
    <message>
        <source>Runnable here (CPU kernel)</source>
        <translation>可在此运行（有 CPU 内核）</translation>
    </message>
    <message>
        <source>Not runnable here</source>
        <translation>无法在此运行</translation>
    </message>
</context>
<context>
    <name>GraphExport</name>
    <message>
        <source>There is no graph to export.</source>
        <translation>没有可导出的计算图。</translation>
    </message>
    <message>
        <source>Graph exported by TensorStudio</source>
        <translation>由 TensorStudio 导出的计算图</translation>
    </message>
</context>
<context>
    <name>GraphSearch</name>
    <message>
        <source>Invalid regular expression at offset %1: %2</source>
        <translation>正则表达式在偏移 %1 处无效：%2</translation>
    </message>
</context>
<context>
    <name>OpStyle</name>
    <message>
        <source>Math</source>
        <translation>数学</translation>
    </message>
    <message>
        <source>Array</source>
        <translation>数组</translation>
    </message>
    <message>
        <source>Neural network</source>
        <translation>神经网络</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Control flow</source>
        <translation>控制流</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Dataset (tf.data)</source>
        <translation>数据集（tf.data）</translation>
    </message>
    <message>
        <source>Function call</source>
        <translation>函数调用</translation>
    </message>
</context>
<context>
    <name>PortText</name>
    <message>
        <source>int32 or int64 class ids [batch], from the data</source>
        <translation>来自数据的 int32 或 int64 类别编号 [batch]</translation>
    </message>
    <message>
        <source>float one-hot rows [batch, classes], from the data</source>
        <translation>来自数据的 float one-hot 行 [batch, classes]</translation>
    </message>
    <message>
        <source>float scores [batch, classes] computed by the network, before softmax</source>
        <translation>网络计算出的 float 分数 [batch, classes]（softmax 之前）</translation>
    </message>
    <message>
        <source>float targets shaped as the predictions, from the data</source>
        <translation>来自数据、形状与预测相同的 float 目标值</translation>
    </message>
    <message>
        <source>float values computed by the network</source>
        <translation>网络计算出的 float 值</translation>
    </message>
    <message>
        <source>the scalar float loss to minimise</source>
        <translation>要最小化的 float 标量损失</translation>
    </message>
    <message>
        <source>float tensor [batch, …, features]</source>
        <translation>float 张量 [batch, …, features]</translation>
    </message>
    <message>
        <source>float images [batch, height, width, channels] (channels_last)</source>
        <translation>float 图像 [batch, height, width, channels]（channels_last）</translation>
    </message>
    <message>
        <source>a tensor [batch, …], flattened to [batch, n]</source>
        <translation>张量 [batch, …]，展平为 [batch, n]</translation>
    </message>
    <message>
        <source>any tensor with as many elements as the new shape</source>
        <translation>元素个数与新形状相同的任意张量</translation>
    </message>
    <message>
        <source>tensors of one dtype, equal in shape but along the axis</source>
        <translation>同一 dtype 的张量，除拼接轴外形状相同</translation>
    </message>
    <message>
        <source>tensors of one dtype and shape</source>
        <translation>同一 dtype 和形状的张量</translation>
    </message>
    <message>
        <source>a float tensor</source>
        <translation>float 张量</translation>
    </message>
    <message>
        <source>the value fed at run time</source>
        <translation>运行时喂入的值</translation>
    </message>
    <message>
        <source>the scalar loss (with total_loss: every loss so far)</source>
        <translation>标量损失（total_loss 时：至此为止的全部损失）</translation>
    </message>
    <message>
        <source>the element-wise sum</source>
        <translation>逐元素之和</translation>
    </message>
    <message>
        <source>float32 one-hot rows [batch, 10]</source>
        <translation>float32 one-hot 行 [batch, 10]</translation>
    </message>
    <message>
        <source>int64 class ids [batch]</source>
        <translation>int64 类别编号 [batch]</translation>
    </message>
    <message>
        <source>uint8 pixels [batch, 784]</source>
        <translation>uint8 像素 [batch, 784]</translation>
    </message>
    <message>
        <source>float32 pixels in [0, 1] [batch, 784]</source>
        <translation>[0, 1] 区间的 float32 像素 [batch, 784]</translation>
    </message>
    <message>
        <source>optional: a component of a data-source node (MnistSource, CsvSource, …). Connected, training feeds this placeholder from that component, whose dtype and shape must match; it is not an edge of the graph. Left unconnected, the placeholder is fed by hand.</source>
        <translation>可选：数据源节点（MnistSource、CsvSource 等）的一个分量。连接后，训练时由该分量馈送此占位符，二者的 dtype 和形状必须一致；这不是图中的边。不连接时，占位符需手动馈送。</translation>
    </message>
    <message>
        <source>a bool scalar: which value passes</source>
        <translation>bool 标量：决定哪个值通过</translation>
    </message>
    <message>
        <source>the value output when pred is true; the same dtype as &apos;false&apos;</source>
        <translation>pred 为真时输出的值；dtype 与 &apos;false&apos; 相同</translation>
    </message>
    <message>
        <source>the value output when pred is false; the same dtype as &apos;true&apos;</source>
        <translation>pred 为假时输出的值；dtype 与 &apos;true&apos; 相同</translation>
    </message>
    <message>
        <source>the value of &apos;true&apos; or &apos;false&apos;, as pred says (a Merge)</source>
        <translation>按 pred 取 &apos;true&apos; 或 &apos;false&apos; 的值（一个 Merge 操作）</translation>
    </message>
</context>
<context>
    <name>TrainingAdvice</name>
    <message>
        <source>set the Data folder in the Training panel (Browse…)</source>
        <translation>请在训练面板中设置数据文件夹（浏览…）</translation>
    </message>
    <message>
        <source>tick &quot;Continue from the latest checkpoint in the log directory&quot; in the Training panel, or choose another Log directory</source>
        <translation>请在训练面板中勾选“从日志目录中最新的检查点继续”，或选择其他日志目录</translation>
    </message>
    <message>
        <source>choose another Log directory in the Training panel (Browse…)</source>
        <translation>请在训练面板中选择其他日志目录（浏览…）</translation>
    </message>
    <message>
        <source>set &quot;%1&quot; in the Training panel (Browse…)</source>
        <translation>请在训练面板中设置“%1”（浏览…）</translation>
    </message>
</context>
<context>
    <name>tstudio::AboutDialog</name>
    <message>
        <source>About TensorStudio</source>
        <translation>关于 TensorStudio</translation>
    </message>
    <message>
        <source>&lt;h2&gt;TensorStudio %1&lt;/h2&gt;&lt;p&gt;An IDE for dataflow-graph deep learning, compatible with TensorFlow 1.x graphs, checkpoints and event files.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;TensorStudio %1&lt;/h2&gt;&lt;p&gt;面向数据流图深度学习的集成开发环境，兼容 TensorFlow 1.x 的图、检查点和事件文件。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>run time</source>
        <translation>运行时</translation>
    </message>
    <message>
        <source>compiled in</source>
        <translation>编译时</translation>
    </message>
    <message>
        <source>no GPU support compiled in</source>
        <translation>编译时未包含 GPU 支持</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>%1, compute capability %2.%3, %4</source>
        <translation>%1，计算能力 %2.%3，%4</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>none (see below)</source>
        <translation>无（见下方）</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU：%1</translation>
    </message>
    <message>
        <source>GPU present but unusable: %1</source>
        <translation>GPU 存在但无法使用：%1</translation>
    </message>
    <message>
        <source>unusable (see below)</source>
        <translation>无法使用（见下方）</translation>
    </message>
</context>
<context>
    <name>tstudio::AddNodeCommand</name>
    <message>
        <source>Add %1 &apos;%2&apos;</source>
        <translation>添加 %1“%2”</translation>
    </message>
</context>
<context>
    <name>tstudio::CanvasOverlays</name>
    <message>
        <source>Top left</source>
        <translation>左上角</translation>
    </message>
    <message>
        <source>Top right</source>
        <translation>右上角</translation>
    </message>
    <message>
        <source>Bottom left</source>
        <translation>左下角</translation>
    </message>
    <message>
        <source>Bottom right</source>
        <translation>右下角</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
</context>
<context>
    <name>tstudio::ConnectCommand</name>
    <message>
        <source>Add control edge &apos;%1&apos; -&gt; &apos;%2&apos;</source>
        <translation>添加控制边“%1”-&gt;“%2”</translation>
    </message>
    <message>
        <source>Connect &apos;%1&apos; to &apos;%2&apos;</source>
        <translation>连接“%1”到“%2”</translation>
    </message>
</context>
<context>
    <name>tstudio::DisconnectCommand</name>
    <message>
        <source>Disconnect &apos;%1&apos; from &apos;%2&apos;</source>
        <translation>断开“%1”与“%2”</translation>
    </message>
</context>
<context>
    <name>tstudio::EmptyState</name>
    <message>
        <source>What is this?</source>
        <translation>这是什么？</translation>
    </message>
    <message>
        <source>Open the guide&apos;s page about this panel (F1)</source>
        <translation>打开指南中关于此面板的页面（F1）</translation>
    </message>
</context>
<context>
    <name>tstudio::ExportDialog</name>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Choose a Checkpoint</source>
        <translation>选择检查点</translation>
    </message>
    <message>
        <source>Checkpoint index (*.index);;All files (*)</source>
        <translation>检查点索引 (*.index);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Checkpoint:</source>
        <translation>检查点：</translation>
    </message>
    <message>
        <source>Outputs:</source>
        <translation>输出：</translation>
    </message>
    <message>
        <source>Inputs:</source>
        <translation>输入：</translation>
    </message>
    <message>
        <source>SavedModel directory:</source>
        <translation>SavedModel 目录：</translation>
    </message>
    <message>
        <source>Choose the Folder for the SavedModel</source>
        <translation>选择 SavedModel 的文件夹</translation>
    </message>
    <message>
        <source>Frozen graph (.pb):</source>
        <translation>冻结图 (.pb)：</translation>
    </message>
    <message>
        <source>Save the Frozen Graph</source>
        <translation>保存冻结图</translation>
    </message>
    <message>
        <source>Binary GraphDef (*.pb)</source>
        <translation>二进制 GraphDef (*.pb)</translation>
    </message>
    <message>
        <source>Use the moving averages of the weights (ExponentialMovingAverage)</source>
        <translation>使用权重的滑动平均值 (ExponentialMovingAverage)</translation>
    </message>
    <message>
        <source>Both are written in evaluation mode: the learning phase (batch normalisation, dropout) is the constant false. Nothing in the log directory is changed.</source>
        <translation>两者均以评估模式写出：学习阶段（批归一化、dropout）为常量 false。日志目录中的内容不会被更改。</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>导出 %1</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Latest checkpoint of %1</source>
        <translation>%1 的最新检查点</translation>
    </message>
    <message>
        <source>Filter the graph&apos;s tensors</source>
        <translation>筛选图中的张量</translation>
    </message>
    <message>
        <source>Cannot read the project&apos;s graph: %1</source>
        <translation>无法读取项目的图：%1</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 — %2, %3</source>
        <translation>%1 — %2，%3</translation>
    </message>
    <message>
        <source>%1 (fed by a data source)</source>
        <translation>%1（由数据源馈送）</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Exported from %1.</source>
        <translation>已从 %1 导出。</translation>
    </message>
    <message>
        <source>SavedModel: %1 (signature serving_default)</source>
        <translation>SavedModel：%1（签名 serving_default）</translation>
    </message>
    <message>
        <source>Frozen graph: %1</source>
        <translation>冻结图：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n variable(s) from their moving average.</source>
        <translation>
            <numerusform>%n 个变量取自其滑动平均值。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tstudio::FileSummaryView</name>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Total size</source>
        <translation>总大小</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1（%2 字节）</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <source>Meta graphs</source>
        <translation>MetaGraph 数</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>Library functions</source>
        <translation>库函数数</translation>
    </message>
    <message>
        <source>Graph producer version</source>
        <translation>图的 producer 版本</translation>
    </message>
    <message>
        <source>Written by TensorFlow</source>
        <translation>写入所用的 TensorFlow 版本</translation>
    </message>
    <message>
        <source>Checkpoint prefix</source>
        <translation>检查点前缀</translation>
    </message>
    <message>
        <source>Tensors in checkpoint</source>
        <translation>检查点中的张量数</translation>
    </message>
    <message>
        <source>Data shards</source>
        <translation>数据分片数</translation>
    </message>
    <message>
        <source>Event file version</source>
        <translation>事件文件版本</translation>
    </message>
    <message>
        <source>Event files</source>
        <translation>事件文件</translation>
    </message>
</context>
<context>
    <name>tstudio::GroupIntoScopeCommand</name>
    <message>
        <source>Group %1 nodes into &apos;%2&apos;</source>
        <translation>将 %1 个节点归入“%2”</translation>
    </message>
</context>
<context>
    <name>tstudio::GuardedApplication</name>
    <message>
        <source>an unknown exception</source>
        <translation>未知异常</translation>
    </message>
    <message>
        <source>no file open</source>
        <translation>未打开文件</translation>
    </message>
    <message>
        <source>Internal error: %1 (file: %2). Please report it; save your work.</source>
        <translation>内部错误：%1（文件：%2）。请报告此问题，并保存您的工作。</translation>
    </message>
    <message>
        <source>Internal error</source>
        <translation>内部错误</translation>
    </message>
    <message>
        <source>TensorStudio hit an internal error and stopped what it was doing:

%1

File: %2

Your open documents are kept; save them and report the error.</source>
        <translation>TensorStudio 遇到内部错误，已停止当前操作：

%1

文件：%2

您打开的文档均已保留；请保存它们并报告此错误。</translation>
    </message>
</context>
<context>
    <name>tstudio::HelpBrowser</name>
    <message>
        <source>The guide&apos;s pages are not in this build: docs/guide holds none of them.</source>
        <translation>此版本中没有指南页面：docs/guide 中一个页面也没有。</translation>
    </message>
    <message>
        <source>The guide has no page &quot;%1&quot;. Choose a page from the list.</source>
        <translation>指南中没有页面“%1”。请从列表中选择一个页面。</translation>
    </message>
    <message>
        <source>TensorStudio Guide</source>
        <translation>TensorStudio 指南</translation>
    </message>
    <message>
        <source>%1 — TensorStudio Guide</source>
        <translation>%1 — TensorStudio 指南</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n hit(s))</source>
        <translation>
            <numerusform>%1（%n 处匹配）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 个页面</numerusform>
        </translation>
    </message>
    <message>
        <source>Back (%1)</source>
        <translation>后退（%1）</translation>
    </message>
    <message>
        <source>Forward (%1)</source>
        <translation>前进（%1）</translation>
    </message>
    <message>
        <source>The first page of the guide</source>
        <translation>指南的首页</translation>
    </message>
    <message>
        <source>Search the guide</source>
        <translation>搜索指南</translation>
    </message>
</context>
<context>
    <name>tstudio::LogModel</name>
    <message>
        <source>Debug</source>
        <translation>调试</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>tstudio::LogPanel</name>
    <message>
        <source>%1 and above</source>
        <translation>%1 及以上</translation>
    </message>
    <message>
        <source>Lowest severity to show</source>
        <translation>要显示的最低级别</translation>
    </message>
    <message>
        <source>Filter messages</source>
        <translation>筛选消息</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Clear the console</source>
        <translation>清空控制台</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy selected messages</source>
        <translation>复制所选消息</translation>
    </message>
    <message numerus="yes">
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source>No messages yet</source>
        <translation>暂无消息</translation>
    </message>
    <message>
        <source>What TensorStudio does with your files and runs is logged here: each file opened and what it was detected as, training progress, warnings and errors.</source>
        <translation>TensorStudio 对您的文件和运行所做的操作都记录在这里：打开的每个文件及其被识别的类型、训练进度、警告和错误。</translation>
    </message>
    <message>
        <source>Copy the selected messages</source>
        <translation>复制所选消息</translation>
    </message>
</context>
<context>
    <name>tstudio::MainWindow</name>
    <message>
        <source>TensorStudio</source>
        <translation>TensorStudio</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open File…</source>
        <translation>打开文件(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a graph, MetaGraph, checkpoint, event file or TFRecord</source>
        <translation>打开图、MetaGraph、检查点、事件文件或 TFRecord</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Open a SavedModel, checkpoint directory or log directory</source>
        <translation>打开 SavedModel、检查点目录或日志目录</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Clear Recent Files</source>
        <translation>清除最近打开的文件(&amp;C)</translation>
    </message>
    <message>
        <source>Open &amp;Example</source>
        <translation>打开示例(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Close Tab</source>
        <translation>关闭标签页(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About TensorStudio</source>
        <translation>关于 TensorStudio(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <source>Default device: %1</source>
        <translation>默认设备：%1</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>无最近打开的文件</translation>
    </message>
    <message>
        <source>Open File</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>%1: detected %2 (%3)</source>
        <translation>%1：检测到 %2（%3）</translation>
    </message>
    <message>
        <source>Opened %1 — %2</source>
        <translation>已打开 %1 — %2</translation>
    </message>
    <message>
        <source>The saved window layout could not be restored; using the default.</source>
        <translation>无法恢复已保存的窗口布局，将使用默认布局。</translation>
    </message>
    <message>
        <source>The op registry could not be built: %1</source>
        <translation>无法构建操作注册表：%1</translation>
    </message>
    <message>
        <source>Opened %1 — %2 (%3 ms)</source>
        <translation>已打开 %1 — %2（%3 毫秒）</translation>
    </message>
    <message>
        <source>Cannot show the graph of run %1: %2</source>
        <translation>无法显示运行 %1 的计算图：%2</translation>
    </message>
    <message>
        <source>Run %1 has no graph yet</source>
        <translation>运行 %1 还没有计算图</translation>
    </message>
    <message>
        <source>%1 (graph of run)</source>
        <translation>%1（运行的计算图）</translation>
    </message>
    <message>
        <source>&amp;New Graph</source>
        <translation>新建计算图(&amp;N)</translation>
    </message>
    <message>
        <source>Compose a new graph in the node editor</source>
        <translation>在节点编辑器中构建新计算图</translation>
    </message>
    <message>
        <source>Save Graph &amp;As…</source>
        <translation>计算图另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The graph &quot;%1&quot; has unsaved changes. Save them?</source>
        <translation>计算图“%1”有未保存的更改。是否保存？</translation>
    </message>
    <message>
        <source>Untitled graph</source>
        <translation>未命名计算图</translation>
    </message>
    <message>
        <source>Cannot edit %1: %2</source>
        <translation>无法编辑 %1：%2</translation>
    </message>
    <message>
        <source>Only a graph in the node editor can be saved</source>
        <translation>只能保存节点编辑器中的计算图</translation>
    </message>
    <message>
        <source>Save Graph As</source>
        <translation>计算图另存为</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>%1 (view)</source>
        <translation>%1（查看）</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>%1 (dashboard)</source>
        <translation>%1（仪表板）</translation>
    </message>
    <message>
        <source>Following %1</source>
        <translation>正在跟踪 %1</translation>
    </message>
    <message>
        <source>Save the node editor&apos;s graph as .pbtxt, .pb, .meta or a .tsproj project</source>
        <translation>将节点编辑器中的计算图保存为 .pbtxt、.pb、.meta 或 .tsproj 项目</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Open Profile Trace</source>
        <translation>打开性能跟踪</translation>
    </message>
    <message>
        <source>Traces (*.json *.json.gz *.pb *tfevents*);;Chrome trace (*.json *.json.gz);;RunMetadata (*.pb);;All files (*)</source>
        <translation>跟踪文件 (*.json *.json.gz *.pb *tfevents*);;Chrome 跟踪 (*.json *.json.gz);;RunMetadata (*.pb);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open Profile &amp;Trace…</source>
        <translation>打开性能跟踪(&amp;T)…</translation>
    </message>
    <message>
        <source>Open a Chrome trace (TensorFlow timeline), a RunMetadata .pb or an event file&apos;s run metadata in the profiler</source>
        <translation>在性能分析器中打开 Chrome 跟踪（TensorFlow 时间线）、RunMetadata .pb 或事件文件中的运行元数据</translation>
    </message>
    <message>
        <source>%1 (profile)</source>
        <translation>%1（性能分析）</translation>
    </message>
    <message>
        <source>Opened %1 in the profiler</source>
        <translation>已在性能分析器中打开 %1</translation>
    </message>
    <message>
        <source>Profiled a step of %1</source>
        <translation>已对 %1 的一个步骤进行性能分析</translation>
    </message>
    <message>
        <source>%1 selected in %2</source>
        <translation>已在 %2 中选中 %1</translation>
    </message>
    <message>
        <source>No open graph has a node %1; open the model&apos;s graph to see it</source>
        <translation>没有打开的图包含节点 %1；请打开模型的图以查看它</translation>
    </message>
    <message>
        <source>%1 (graph)</source>
        <translation>%1（图）</translation>
    </message>
    <message>
        <source>Opened the graph of %1 beside the profile</source>
        <translation>已在性能分析旁打开 %1 的图</translation>
    </message>
    <message>
        <source>No profile holds an execution of %1</source>
        <translation>没有性能分析包含 %1 的执行</translation>
    </message>
    <message>
        <source>%1 (training graph)</source>
        <translation>%1（训练图）</translation>
    </message>
    <message>
        <source>Debugging the training of %1: set breakpoints, pause or step in the Debugger tab</source>
        <translation>正在调试 %1 的训练：可在“调试器”标签页中设置断点、暂停或单步执行</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the node editor&apos;s graph to its file, in the same kind</source>
        <translation>将节点编辑器中的图保存到其文件，保持原有类型</translation>
    </message>
    <message>
        <source>Text GraphDef (*.pbtxt)</source>
        <translation>文本 GraphDef (*.pbtxt)</translation>
    </message>
    <message>
        <source>Binary GraphDef (*.pb)</source>
        <translation>二进制 GraphDef (*.pb)</translation>
    </message>
    <message>
        <source>MetaGraph with variables and saver (*.meta)</source>
        <translation>含变量和保存器的 MetaGraph (*.meta)</translation>
    </message>
    <message>
        <source>TensorStudio project with layout and training (*.tsproj)</source>
        <translation>含布局和训练设置的 TensorStudio 项目 (*.tsproj)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>This graph cannot be exported as a project: %1</source>
        <translation>此图无法作为项目导出：%1</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Export the trained project as a SavedModel and/or a frozen graph for inference</source>
        <translation>将训练好的项目导出为 SavedModel 和/或冻结图，用于推理</translation>
    </message>
    <message>
        <source>Open Project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>&amp;Welcome</source>
        <translation>欢迎页(&amp;W)</translation>
    </message>
    <message>
        <source>Show the welcome page: start actions, recent files and the example gallery</source>
        <translation>显示欢迎页：开始操作、最近打开的文件和示例库</translation>
    </message>
    <message>
        <source>&amp;Guide</source>
        <translation>指南(&amp;G)</translation>
    </message>
    <message>
        <source>Open the guide: the five-minute first network and a page for each panel</source>
        <translation>打开指南：五分钟搭建第一个网络，以及每个面板的介绍页面</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>List every keyboard shortcut and canvas gesture</source>
        <translation>列出所有键盘快捷键和画布手势</translation>
    </message>
    <message>
        <source>No example projects found (set TSTUDIO_EXAMPLES_DIR)</source>
        <translation>未找到示例项目（请设置 TSTUDIO_EXAMPLES_DIR）</translation>
    </message>
    <message>
        <source>The spirals example: press F5 to train it (the Training panel shows Start)</source>
        <translation>双螺旋示例：按 F5 训练（训练面板显示“开始”）</translation>
    </message>
    <message>
        <source>The example %1 was not found in the examples folder (%2); set TSTUDIO_EXAMPLES_DIR to the folder that holds the .tsproj files.</source>
        <translation>在示例文件夹（%2）中未找到示例 %1；请将 TSTUDIO_EXAMPLES_DIR 设置为包含 .tsproj 文件的文件夹。</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>There is no example called %1.</source>
        <translation>没有名为 %1 的示例。</translation>
    </message>
    <message>
        <source>A training run is going on: stop it in the Training panel first.</source>
        <translation>正在进行训练：请先在训练面板中停止训练。</translation>
    </message>
    <message>
        <source>%1 could not be opened; the Console says why.</source>
        <translation>无法打开 %1；原因见控制台。</translation>
    </message>
    <message>
        <source>unrecognised content (%1)</source>
        <translation>无法识别的内容（%1）</translation>
    </message>
    <message>
        <source>TensorStudio cannot open %1.</source>
        <translation>TensorStudio 无法打开 %1。</translation>
    </message>
    <message>
        <source>%1

Check that the file is complete (a download or copy may have been cut short) and of a kind TensorStudio reads; the Console (Ctrl+`) keeps this message.</source>
        <translation>%1

请检查该文件是否完整（下载或复制可能被中断），以及是否为 TensorStudio 能读取的类型；控制台（Ctrl+`）中保留了此消息。</translation>
    </message>
    <message>
        <source>%1: its variables cannot be read. %2</source>
        <translation>%1：无法读取其变量。%2</translation>
    </message>
    <message>
        <source>The desktop&apos;s list of recent files was not updated: %1</source>
        <translation>桌面的最近文件列表未更新：%1</translation>
    </message>
    <message>
        <source>An example is being opened for training: wait for it to start.</source>
        <translation>正在打开一个示例以进行训练：请等待它开始。</translation>
    </message>
    <message>
        <source>%1 is still being opened: train it when it is shown.</source>
        <translation>%1 仍在打开中：显示后再训练它。</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Compare: the First Graph or Checkpoint</source>
        <translation>比较：第一个图或检查点</translation>
    </message>
    <message>
        <source>Compare %1 with…</source>
        <translation>将 %1 与…比较</translation>
    </message>
    <message>
        <source>Co&amp;mpare…</source>
        <translation>比较(&amp;M)…</translation>
    </message>
    <message>
        <source>Compare two graphs (nodes added, removed, renamed, changed) or two checkpoints (each tensor&apos;s largest and relative change)</source>
        <translation>比较两个图（新增、删除、重命名、改变的节点）或两个检查点（每个张量的最大变化和相对变化）</translation>
    </message>
    <message>
        <source>Compared %1</source>
        <translation>已比较 %1</translation>
    </message>
    <message>
        <source>Cannot compare %1: %2</source>
        <translation>无法比较 %1：%2</translation>
    </message>
    <message>
        <source>No checkpoint in %1 yet: train the project first, then open %2 in the Projector.</source>
        <translation>%1 中还没有检查点：请先训练项目，然后再在投影器中打开 %2。</translation>
    </message>
    <message>
        <source>the project&apos;s log directory</source>
        <translation>项目的日志目录</translation>
    </message>
    <message>
        <source>The checkpoints in %1 hold no variable %2.</source>
        <translation>%1 中的检查点不包含变量 %2。</translation>
    </message>
    <message>
        <source>%1 (interactive session)</source>
        <translation>%1（交互式会话）</translation>
    </message>
    <message>
        <source>Debugging a run of the interactive session of %1: step, continue or stop it in the Debugger tab</source>
        <translation>正在调试 %1 的交互式会话中的一次运行：在调试器标签页中单步、继续或停止它</translation>
    </message>
    <message>
        <source>Debug a line of the Session console (debug LINE) to run it again under the debugger</source>
        <translation>在会话控制台中调试一行（debug 行）以在调试器下再次运行它</translation>
    </message>
</context>
<context>
    <name>tstudio::MoveNodesCommand</name>
    <message>
        <source>Move &apos;%1&apos;</source>
        <translation>移动“%1”</translation>
    </message>
    <message>
        <source>Move %1 nodes</source>
        <translation>移动 %1 个节点</translation>
    </message>
</context>
<context>
    <name>tstudio::PasteCommand</name>
    <message>
        <source>Paste %1 nodes</source>
        <translation>粘贴 %1 个节点</translation>
    </message>
</context>
<context>
    <name>tstudio::RemoveNodesCommand</name>
    <message>
        <source>Remove &apos;%1&apos;</source>
        <translation>删除“%1”</translation>
    </message>
    <message>
        <source>Remove %1 nodes</source>
        <translation>删除 %1 个节点</translation>
    </message>
</context>
<context>
    <name>tstudio::RenameCommand</name>
    <message>
        <source>Rename &apos;%1&apos; to &apos;%2&apos;</source>
        <translation>将“%1”重命名为“%2”</translation>
    </message>
</context>
<context>
    <name>tstudio::SetAttrCommand</name>
    <message>
        <source>Set %1 of &apos;%2&apos;</source>
        <translation>设置“%2”的 %1</translation>
    </message>
    <message>
        <source>Clear %1 of &apos;%2&apos;</source>
        <translation>清除“%2”的 %1</translation>
    </message>
</context>
<context>
    <name>tstudio::SetDeviceCommand</name>
    <message>
        <source>Set device of &apos;%1&apos;</source>
        <translation>设置“%1”的设备</translation>
    </message>
</context>
<context>
    <name>tstudio::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>Default &amp;device:</source>
        <translation>默认设备(&amp;D)：</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>No GPU available: %1</source>
        <translation>没有可用的 GPU：%1</translation>
    </message>
    <message>
        <source>GPU present but unusable: %1</source>
        <translation>GPU 存在但无法使用：%1</translation>
    </message>
</context>
<context>
    <name>tstudio::ShortcutsDialog</name>
    <message>
        <source>%1 menu</source>
        <translation>%1菜单</translation>
    </message>
    <message>
        <source>Node editor</source>
        <translation>节点编辑器</translation>
    </message>
    <message>
        <source>Graph viewer</source>
        <translation>计算图查看器</translation>
    </message>
    <message>
        <source>Profiler</source>
        <translation>性能分析器</translation>
    </message>
    <message>
        <source>Debugger</source>
        <translation>调试器</translation>
    </message>
    <message>
        <source>Dashboard</source>
        <translation>仪表板</translation>
    </message>
    <message>
        <source>Node editor canvas</source>
        <translation>节点编辑器画布</translation>
    </message>
    <message>
        <source>Add an op or layer: type its name in the quick-add popup</source>
        <translation>添加操作或层：在快速添加弹出框中输入其名称</translation>
    </message>
    <message>
        <source>Tab, or a letter key</source>
        <translation>Tab，或任意字母键</translation>
    </message>
    <message>
        <source>Add an op or layer</source>
        <translation>添加操作或层</translation>
    </message>
    <message>
        <source>Drag it from the palette onto the canvas</source>
        <translation>将其从组件面板拖到画布上</translation>
    </message>
    <message>
        <source>Connect two ports</source>
        <translation>连接两个端口</translation>
    </message>
    <message>
        <source>Drag from an output port to an input port</source>
        <translation>从输出端口拖到输入端口</translation>
    </message>
    <message>
        <source>Move a connection to another input</source>
        <translation>将连接移到另一个输入</translation>
    </message>
    <message>
        <source>Drag it away from its connected input port</source>
        <translation>将其从所连接的输入端口拖开</translation>
    </message>
    <message>
        <source>Select nodes</source>
        <translation>选择节点</translation>
    </message>
    <message>
        <source>Drag a rectangle on the empty canvas</source>
        <translation>在画布空白处拖出矩形</translation>
    </message>
    <message>
        <source>Show the ops a layer builds in a graph viewer</source>
        <translation>在计算图查看器中显示某个层构建的操作</translation>
    </message>
    <message>
        <source>Double-click the layer</source>
        <translation>双击该层</translation>
    </message>
    <message>
        <source>Collapse or expand a name scope</source>
        <translation>折叠或展开名称作用域</translation>
    </message>
    <message>
        <source>Double-click its frame, or click its arrow</source>
        <translation>双击其边框，或点击其箭头</translation>
    </message>
    <message>
        <source>Zoom</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Mouse wheel; + or = and −</source>
        <translation>鼠标滚轮；+ 或 = 以及 −</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Middle-drag; arrow keys</source>
        <translation>中键拖动；方向键</translation>
    </message>
    <message>
        <source>Graph viewer canvas</source>
        <translation>计算图查看器画布</translation>
    </message>
    <message>
        <source>Zoom at the pointer</source>
        <translation>以指针为中心缩放</translation>
    </message>
    <message>
        <source>Mouse wheel</source>
        <translation>鼠标滚轮</translation>
    </message>
    <message>
        <source>Drag (left or middle button); Shift+wheel; arrow keys</source>
        <translation>拖动（左键或中键）；Shift+滚轮；方向键</translation>
    </message>
    <message>
        <source>Select a node</source>
        <translation>选择节点</translation>
    </message>
    <message>
        <source>Click it</source>
        <translation>点击它</translation>
    </message>
    <message>
        <source>Expand or collapse a name scope</source>
        <translation>展开或折叠名称作用域</translation>
    </message>
    <message>
        <source>Double-click it, click its toggle, or Enter</source>
        <translation>双击它、点击其展开/折叠按钮，或按 Enter</translation>
    </message>
    <message>
        <source>Expand the selected scope (zoom in when nothing is selected)</source>
        <translation>展开选中的作用域（未选中任何内容时放大）</translation>
    </message>
    <message>
        <source>Collapse the selected scope or its parent (zoom out when nothing is selected)</source>
        <translation>折叠选中的作用域或其父作用域（未选中任何内容时缩小）</translation>
    </message>
    <message>
        <source>Clear the selection</source>
        <translation>清除选择</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Node menu (edit, trace, breakpoint, timeline)</source>
        <translation>节点菜单（编辑、跟踪、断点、时间线）</translation>
    </message>
    <message>
        <source>Right-click</source>
        <translation>右键单击</translation>
    </message>
    <message>
        <source>Profiler timeline</source>
        <translation>性能分析器时间线</translation>
    </message>
    <message>
        <source>Zoom in / out</source>
        <translation>放大 / 缩小</translation>
    </message>
    <message>
        <source>W / S (hold to keep zooming); Ctrl+wheel or Alt+wheel</source>
        <translation>W / S（按住可持续缩放）；Ctrl+滚轮或 Alt+滚轮</translation>
    </message>
    <message>
        <source>Pan in time</source>
        <translation>沿时间平移</translation>
    </message>
    <message>
        <source>A / D or ← / → (hold to keep moving); Shift+wheel</source>
        <translation>A / D 或 ← / →（按住可持续移动）；Shift+滚轮</translation>
    </message>
    <message>
        <source>Scroll the lanes</source>
        <translation>滚动通道</translation>
    </message>
    <message>
        <source>Middle-drag, or Alt+drag</source>
        <translation>中键拖动，或 Alt+拖动</translation>
    </message>
    <message>
        <source>Select, Pan, Zoom and Timing tools</source>
        <translation>选择、平移、缩放和计时工具</translation>
    </message>
    <message>
        <source>Frame the selection</source>
        <translation>缩放以显示所选内容</translation>
    </message>
    <message>
        <source>Show the whole trace</source>
        <translation>显示整个跟踪</translation>
    </message>
    <message>
        <source>Clear the box selection and the measurement</source>
        <translation>清除框选和测量结果</translation>
    </message>
    <message>
        <source>Select an op execution</source>
        <translation>选中一次操作执行</translation>
    </message>
    <message>
        <source>Select an op execution and frame it</source>
        <translation>选中一次操作执行并缩放以显示它</translation>
    </message>
    <message>
        <source>Double-click it</source>
        <translation>双击它</translation>
    </message>
    <message>
        <source>Select the executions in a time range</source>
        <translation>选中某个时间范围内的执行</translation>
    </message>
    <message>
        <source>Drag with the Select tool</source>
        <translation>使用选择工具拖动</translation>
    </message>
    <message>
        <source>Measure a time span</source>
        <translation>测量时间跨度</translation>
    </message>
    <message>
        <source>Drag in the time ruler (click it to clear)</source>
        <translation>在时间标尺中拖动（点击标尺可清除）</translation>
    </message>
    <message>
        <source>Collapse or expand a device&apos;s lanes</source>
        <translation>折叠或展开设备的通道</translation>
    </message>
    <message>
        <source>Click the device&apos;s label</source>
        <translation>点击设备的名称标签</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Filter by action, key or place</source>
        <translation>按操作、按键或位置筛选</translation>
    </message>
    <message>
        <source>%1 panel</source>
        <translation>%1面板</translation>
    </message>
    <message>
        <source>Guide window</source>
        <translation>指南窗口</translation>
    </message>
    <message>
        <source>%1 window</source>
        <translation>%1窗口</translation>
    </message>
    <message>
        <source>Main window</source>
        <translation>主窗口</translation>
    </message>
</context>
<context>
    <name>tstudio::StartPage</name>
    <message>
        <source>TensorStudio</source>
        <translation>TensorStudio</translation>
    </message>
    <message>
        <source>Open File…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Projects you open or save will be listed here.</source>
        <translation>您打开或保存的项目将列在此处。</translation>
    </message>
    <message>
        <source>Graphs, checkpoints and logs you open will be listed here.</source>
        <translation>您打开的计算图、检查点和日志将列在此处。</translation>
    </message>
    <message>
        <source>Data: %1</source>
        <translation>数据：%1</translation>
    </message>
    <message>
        <source>Download %1 &lt;a href=&quot;%2&quot;&gt;%3&lt;/a&gt;</source>
        <translation>下载 %1 &lt;a href=&quot;%2&quot;&gt;%3&lt;/a&gt;</translation>
    </message>
    <message>
        <source>Folder with the data</source>
        <translation>存放数据的文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Data Folder for %1</source>
        <translation>%1 的数据文件夹</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open %1 in the node editor</source>
        <translation>在节点编辑器中打开 %1</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Open the project and train it on the data in the folder above</source>
        <translation>打开项目，并用上方文件夹中的数据训练它</translation>
    </message>
    <message>
        <source>Open the project and start training it: the dashboard follows the run</source>
        <translation>打开项目并开始训练：仪表板将跟踪本次运行</translation>
    </message>
    <message>
        <source>Compose, train and inspect TensorFlow 1.x graphs. Open a graph (.pb, .pbtxt, .meta), SavedModel, checkpoint, event log, TFRecord or project, or drop files onto this window.</source>
        <translation>构建、训练和检查 TensorFlow 1.x 计算图。可打开计算图（.pb、.pbtxt、.meta）、SavedModel、检查点、事件日志、TFRecord 或项目，也可将文件拖放到此窗口。</translation>
    </message>
    <message>
        <source>Back to Documents</source>
        <translation>返回文档</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>New Graph</source>
        <translation>新建计算图</translation>
    </message>
    <message>
        <source>Compose a new graph in the node editor</source>
        <translation>在节点编辑器中构建新计算图</translation>
    </message>
    <message>
        <source>Open Project…</source>
        <translation>打开项目…</translation>
    </message>
    <message>
        <source>Open a TensorStudio project (.tsproj): graph, data and training</source>
        <translation>打开 TensorStudio 项目（.tsproj）：计算图、数据和训练</translation>
    </message>
    <message>
        <source>Open a graph, MetaGraph, checkpoint, event file, TFRecord or trace</source>
        <translation>打开图、MetaGraph、检查点、事件文件、TFRecord 或跟踪文件</translation>
    </message>
    <message>
        <source>Open a SavedModel, checkpoint directory or log directory</source>
        <translation>打开 SavedModel、检查点目录或日志目录</translation>
    </message>
    <message>
        <source>Recent Projects</source>
        <translation>最近打开的项目</translation>
    </message>
    <message>
        <source>Recent Files</source>
        <translation>最近打开的文件</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Train a network in one click and watch it learn, or open it to see how it is built.</source>
        <translation>一键训练网络并观察它的学习过程，或打开它查看其构建方式。</translation>
    </message>
    <message>
        <source>No example projects were found. Set TSTUDIO_EXAMPLES_DIR to the folder that holds them (examples/projects in the source tree).</source>
        <translation>未找到示例项目。请将 TSTUDIO_EXAMPLES_DIR 设置为存放它们的文件夹（源码树中的 examples/projects）。</translation>
    </message>
    <message>
        <source>No example projects were found in %1.</source>
        <translation>在 %1 中未找到示例项目。</translation>
    </message>
</context>
<context>
    <name>tstudio::UngroupCommand</name>
    <message>
        <source>Ungroup &apos;%1&apos;</source>
        <translation>取消分组“%1”</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::AudioCard</name>
    <message>
        <source>no samples</source>
        <translation>无样本</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::AudioClipWidget</name>
    <message>
        <source>mono</source>
        <translation>单声道</translation>
    </message>
    <message>
        <source>stereo</source>
        <translation>立体声</translation>
    </message>
    <message>
        <source>%1 channels</source>
        <translation>%1 声道</translation>
    </message>
    <message>
        <source>%1 Hz · %2 s · %3 · %4-bit</source>
        <translation>%1 Hz · %2 秒 · %3 · %4 位</translation>
    </message>
    <message>
        <source>%1 Hz, </source>
        <translation>%1 Hz，</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Save as WAV…</source>
        <translation>另存为 WAV…</translation>
    </message>
    <message>
        <source>Save audio clip as WAV</source>
        <translation>将音频片段另存为 WAV</translation>
    </message>
    <message>
        <source>WAV audio (*.wav)</source>
        <translation>WAV 音频 (*.wav)</translation>
    </message>
    <message>
        <source>Save as WAV</source>
        <translation>另存为 WAV</translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>Play the clip on the default audio output</source>
        <translation>在默认音频输出上播放此片段</translation>
    </message>
    <message>
        <source>No audio output on this machine: save the clip and play it elsewhere.</source>
        <translation>本机没有音频输出：请保存片段并在其他地方播放。</translation>
    </message>
    <message numerus="yes">
        <source>The audio output %1 cannot play %2 Hz with %n channel(s).</source>
        <translation>
            <numerusform>音频输出 %1 无法播放 %2 Hz、%n 个声道的音频。</numerusform>
        </translation>
    </message>
    <message>
        <source>Playback stopped: the audio output reported an error.</source>
        <translation>播放已停止：音频输出报告了错误。</translation>
    </message>
    <message>
        <source>The audio output %1 could not start.</source>
        <translation>音频输出 %1 无法启动。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop playing</source>
        <translation>停止播放</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::AudioView</name>
    <message>
        <source>No audio data. Write audio summaries (tf.summary.audio) to the log directory.</source>
        <translation>没有音频数据。请向日志目录写入音频摘要（tf.summary.audio）。</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::CustomScalarsView</name>
    <message>
        <source>Save Layout</source>
        <translation>保存布局</translation>
    </message>
    <message>
        <source>No custom scalars layout. A run writes one with TensorBoard&apos;s summary_lib.custom_scalar_pb or PyTorch&apos;s SummaryWriter.add_custom_scalars: charts of several tags chosen by regular expressions, and margin charts.</source>
        <translation>没有自定义标量布局。运行可以用 TensorBoard 的 summary_lib.custom_scalar_pb 或 PyTorch 的 SummaryWriter.add_custom_scalars 写入布局：由正则表达式选择多个标签的图表，以及边距图表。</translation>
    </message>
    <message>
        <source>New Chart…</source>
        <translation>新建图表…</translation>
    </message>
    <message>
        <source>Add a chart of several tags, or a margin chart, to this layout</source>
        <translation>向此布局添加一个多标签图表或边距图表</translation>
    </message>
    <message>
        <source>No log directory to save in</source>
        <translation>没有可保存到的日志目录</translation>
    </message>
    <message>
        <source>Write the layout into %1 as TensorBoard&apos;s custom scalars summary</source>
        <translation>将布局作为 TensorBoard 的自定义标量摘要写入 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n chart(s) not saved</source>
        <translation>
            <numerusform>%n 个图表未保存</numerusform>
        </translation>
    </message>
    <message>
        <source>New Custom Scalars Chart</source>
        <translation>新建自定义标量图表</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Lines of several tags</source>
        <translation>多个标签的曲线</translation>
    </message>
    <message>
        <source>Margin: a value between two bounds</source>
        <translation>边距：介于两个界限之间的值</translation>
    </message>
    <message>
        <source>One regular expression per line, matched from the start of each tag, e.g. loss.*</source>
        <translation>每行一个正则表达式，从每个标签的开头匹配，例如 loss.*</translation>
    </message>
    <message>
        <source>Value tag</source>
        <translation>值标签</translation>
    </message>
    <message>
        <source>Lower bound tag</source>
        <translation>下界标签</translation>
    </message>
    <message>
        <source>Upper bound tag</source>
        <translation>上界标签</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::DashboardView</name>
    <message>
        <source>Follow files</source>
        <translation>跟踪文件</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Read what is new now (%1)</source>
        <translation>立即读取新内容（%1）</translation>
    </message>
    <message>
        <source>Scalars</source>
        <translation>标量</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Graphs</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Histograms</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Audio</source>
        <translation>音频</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run metadata</source>
        <translation>运行元数据</translation>
    </message>
    <message>
        <source>Runs whose event files hold a graph. Open one in the graph viewer to explore it and colour it by the compute time and memory of a RunMetadata step.</source>
        <translation>事件文件中包含计算图的运行。在计算图查看器中打开即可浏览，并按某个 RunMetadata 步骤的计算时间和内存着色。</translation>
    </message>
    <message>
        <source>Open in Graph Viewer</source>
        <translation>在计算图查看器中打开</translation>
    </message>
    <message>
        <source>Cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n run(s)</source>
        <translation>
            <numerusform>%1 · %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>following (read in %1 ms)</source>
        <translation>跟踪中（读取耗时 %1 毫秒）</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Add Log Directory</source>
        <translation>添加日志目录</translation>
    </message>
    <message>
        <source>Re-read the log directories every 0.4 seconds (pause to freeze the view)</source>
        <translation>每 0.4 秒重新读取日志目录（暂停以冻结视图）</translation>
    </message>
    <message>
        <source>Add Log Directory…</source>
        <translation>添加日志目录…</translation>
    </message>
    <message>
        <source>Compare the runs of another log directory in this dashboard</source>
        <translation>在此仪表板中比较另一个日志目录的运行</translation>
    </message>
    <message>
        <source>No runs yet</source>
        <translation>暂无运行</translation>
    </message>
    <message>
        <source>Add a log directory to compare its runs here, or train a project: the dashboard follows its run from the first step.</source>
        <translation>添加日志目录以在此比较其中的运行，或训练一个项目：仪表板会从第一步起跟踪其运行。</translation>
    </message>
    <message>
        <source>Nothing in %1 holds events yet. Runs appear here as soon as training writes event files there: start one from the Training panel, or add another log directory.</source>
        <translation>%1 中尚无任何事件。训练一旦向其中写入事件文件，运行就会显示在此处：可在训练面板中开始训练，或添加其他日志目录。</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more warning(s) like these while reading the log directory</source>
        <translation>
            <numerusform>… 读取日志目录时还有 %n 条类似的警告</numerusform>
        </translation>
    </message>
    <message>
        <source>HParams</source>
        <translation>超参数</translation>
    </message>
    <message>
        <source>PR Curves</source>
        <translation>PR 曲线</translation>
    </message>
    <message>
        <source>Export Scalars</source>
        <translation>导出标量</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation>CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Exported the scalars of the visible runs to %1</source>
        <translation>已将可见运行的标量导出到 %1</translation>
    </message>
    <message>
        <source>Could not export the scalars to %1: %2</source>
        <translation>无法将标量导出到 %1：%2</translation>
    </message>
    <message>
        <source>Export Scalars…</source>
        <translation>导出标量…</translation>
    </message>
    <message>
        <source>Save every scalar tag of every visible run in one CSV or JSON file</source>
        <translation>将每个可见运行的所有标量标签保存到一个 CSV 或 JSON 文件</translation>
    </message>
    <message>
        <source>No visible run has scalars.</source>
        <translation>没有可见的运行含有标量。</translation>
    </message>
    <message>
        <source>Custom Scalars</source>
        <translation>自定义标量</translation>
    </message>
    <message>
        <source>Run %1: its event files are gone; it left the dashboard</source>
        <translation>运行 %1：其事件文件已不存在，已从仪表板移除</translation>
    </message>
    <message>
        <source>There is no run %1</source>
        <translation>没有运行 %1</translation>
    </message>
    <message>
        <source>Delete Run Folder</source>
        <translation>删除运行文件夹</translation>
    </message>
    <message>
        <source>The folder %1 and everything in it (event files, checkpoints, exports) will be moved to the trash.</source>
        <translation>文件夹 %1 及其中的所有内容（事件文件、检查点、导出）将被移到回收站。</translation>
    </message>
    <message numerus="yes">
        <source>Other runs lie in folders below %1: only the %n file(s) directly in it will be moved to the trash; those runs stay.</source>
        <translation>
            <numerusform>%1 下方的文件夹中还有其他运行：只有直接位于其中的 %n 个文件会被移到回收站；那些运行保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete the folder of run %1?</source>
        <translation>删除运行 %1 的文件夹？</translation>
    </message>
    <message>
        <source>Move to Trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <source>Moved the folder of run %1 to the trash: %2</source>
        <translation>已将运行 %1 的文件夹移到回收站：%2</translation>
    </message>
    <message>
        <source>%1

Delete what is left of run %2 permanently? This cannot be undone.</source>
        <translation>%1

永久删除运行 %2 剩余的内容？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Deleted the folder of run %1 permanently: %2</source>
        <translation>已永久删除运行 %1 的文件夹：%2</translation>
    </message>
    <message>
        <source>Projector</source>
        <translation>投影器</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::DistributionCard</name>
    <message>
        <source>No histogram data for the shown runs</source>
        <translation>所显示的运行没有直方图数据</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::DistributionView</name>
    <message>
        <source>No distribution data. Write histogram summaries (tf.summary.histogram) to the log directory.</source>
        <translation>没有分布数据。请向日志目录写入直方图摘要（tf.summary.histogram）。</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::HParamsParallelView</name>
    <message>
        <source>Choose hparams and metrics to draw as axes.</source>
        <translation>请选择要作为坐标轴绘制的超参数和指标。</translation>
    </message>
    <message>
        <source>Drag along the axis to keep a range; click it to clear.</source>
        <translation>沿坐标轴拖动以保留一个范围；单击坐标轴可清除。</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::HParamsScatterView</name>
    <message>
        <source>Choose hparams and metrics to plot against each other.</source>
        <translation>请选择要相互对照绘制的超参数和指标。</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::HParamsView</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Filter sessions (any cell)</source>
        <translation>过滤会话（任一单元格）</translation>
    </message>
    <message>
        <source>Cannot read the hyperparameters: %1</source>
        <translation>无法读取超参数：%1</translation>
    </message>
    <message>
        <source>Reading the hparams plugin&apos;s data…</source>
        <translation>正在读取 hparams 插件的数据…</translation>
    </message>
    <message>
        <source>No hyperparameter sessions: write them with TensorFlow&apos;s hparams API (hp.hparams) or PyTorch&apos;s SummaryWriter.add_hparams.</source>
        <translation>没有超参数会话：用 TensorFlow 的 hparams API（hp.hparams）或 PyTorch 的 SummaryWriter.add_hparams 写入。</translation>
    </message>
    <message>
        <source>%1 (log)</source>
        <translation>%1（对数）</translation>
    </message>
    <message>
        <source>Run: %1</source>
        <translation>运行：%1</translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>%1 (metric)</source>
        <translation>%1（指标）</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Parallel Coordinates</source>
        <translation>平行坐标</translation>
    </message>
    <message>
        <source>Scatter Plot Matrix</source>
        <translation>散点图矩阵</translation>
    </message>
    <message>
        <source>Columns shown:</source>
        <translation>显示的列：</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>着色依据：</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n session(s) kept by the filter and the axis ranges; double-click a session to chart its runs alone.</source>
        <translation>
            <numerusform>%n 个会话中有 %1 个通过筛选和坐标轴范围；双击一个会话可单独绘制其运行的图表。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s); click a column header to sort by it, drag along an axis of the parallel coordinates to keep a range, double-click a session to chart its runs alone.</source>
        <translation>
            <numerusform>%n 个会话；单击列标题可按该列排序，沿平行坐标的坐标轴拖动可保留一个范围，双击一个会话可单独绘制其运行的图表。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hparam(s) with the same value in every session hidden (tick them in the list to show them).</source>
        <translation>
            <numerusform>已隐藏 %n 个在每个会话中取值相同的超参数（在列表中勾选即可显示）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::HistogramCard</name>
    <message>
        <source>No histogram data for the shown runs</source>
        <translation>所显示的运行没有直方图数据</translation>
    </message>
    <message>
        <source>step %1  value %2  count %3</source>
        <translation>第 %1 步  值 %2  计数 %3</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::HistogramView</name>
    <message>
        <source>Histogram mode:</source>
        <translation>直方图模式：</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移</translation>
    </message>
    <message>
        <source>Overlay</source>
        <translation>叠加</translation>
    </message>
    <message>
        <source>Offset: one ridge per step, newest in front. Overlay: every step on one axis.</source>
        <translation>偏移：每步一条山脊，最新的在最前。叠加：所有步骤画在同一坐标轴上。</translation>
    </message>
    <message>
        <source>No histogram data. Write histogram summaries (tf.summary.histogram) to the log directory.</source>
        <translation>没有直方图数据。请向日志目录写入直方图摘要（tf.summary.histogram）。</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::ImageCard</name>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Brightness</source>
        <translation>亮度</translation>
    </message>
    <message>
        <source>Contrast</source>
        <translation>对比度</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Reset brightness and contrast</source>
        <translation>重置亮度和对比度</translation>
    </message>
    <message>
        <source>Actual size</source>
        <translation>实际大小</translation>
    </message>
    <message>
        <source>Show the image at its own size instead of fitting it to the card</source>
        <translation>按图像本身大小显示，而不是适应卡片</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>另存为 PNG…</translation>
    </message>
    <message>
        <source>no samples</source>
        <translation>无样本</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>The sample at step %1 holds no image.</source>
        <translation>第 %1 步的样本不含图像。</translation>
    </message>
    <message>
        <source>The image at step %1 could not be decoded (%2 bytes; PNG, JPEG or GIF expected).</source>
        <translation>无法解码第 %1 步的图像（%2 字节；应为 PNG、JPEG 或 GIF）。</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> / %1</translation>
    </message>
    <message>
        <source>There is no image to save.</source>
        <translation>没有可保存的图像。</translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation>无法写入“%1”：%2</translation>
    </message>
    <message>
        <source>Cannot encode the image as PNG for &apos;%1&apos;.</source>
        <translation>无法将图像编码为 PNG 以写入“%1”。</translation>
    </message>
    <message>
        <source>Save image as PNG</source>
        <translation>将图像另存为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Save as PNG</source>
        <translation>另存为 PNG</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::ImagesView</name>
    <message>
        <source>No image data. Write image summaries (tf.summary.image) to the log directory.</source>
        <translation>没有图像数据。请向日志目录写入图像摘要（tf.summary.image）。</translation>
    </message>
    <message>
        <source>One step for all cards</source>
        <translation>所有卡片使用同一步</translation>
    </message>
    <message>
        <source>Show every run&apos;s images at the same step (each card&apos;s last sample at or before it)</source>
        <translation>在同一步显示所有运行的图像（每张卡片取该步或之前的最后一个样本）</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::PrCurveCard</name>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>Step %1 · %2 thresholds</source>
        <translation>第 %1 步 · %2 个阈值</translation>
    </message>
    <message>
        <source>threshold %1
precision %2, recall %3
TP %4, FP %5, TN %6, FN %7</source>
        <translation>阈值 %1
精确率 %2，召回率 %3
TP %4，FP %5，TN %6，FN %7</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::PrCurvesView</name>
    <message>
        <source>No PR curves. Write pr_curves summaries (tensorboard.summary.pr_curve, or PyTorch&apos;s SummaryWriter.add_pr_curve) to the log directory.</source>
        <translation>没有 PR 曲线。请将 pr_curves 摘要（tensorboard.summary.pr_curve，或 PyTorch 的 SummaryWriter.add_pr_curve）写入日志目录。</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::ProjectorView</name>
    <message>
        <source>The embeddings that the runs&apos; projector_config.pbtxt files name</source>
        <translation>各运行的 projector_config.pbtxt 文件所列出的嵌入</translation>
    </message>
    <message>
        <source>Sphereize data</source>
        <translation>球面化数据</translation>
    </message>
    <message>
        <source>Centre the points and scale each to unit length before PCA, as TensorBoard does</source>
        <translation>在 PCA 之前将点中心化并把每个点缩放为单位长度，与 TensorBoard 相同</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>Label by</source>
        <translation>标签依据</translation>
    </message>
    <message>
        <source>Search the labels (regular expression)</source>
        <translation>搜索标签（正则表达式）</translation>
    </message>
    <message>
        <source>No embeddings. A run writes them with TensorBoard&apos;s projector (projector_config.pbtxt beside a checkpoint or TSV files) or PyTorch&apos;s SummaryWriter.add_embedding.</source>
        <translation>没有嵌入。运行可以用 TensorBoard 的投影器（与检查点或 TSV 文件放在一起的 projector_config.pbtxt）或 PyTorch 的 SummaryWriter.add_embedding 写入嵌入。</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Click a point for its metadata and its nearest neighbours.</source>
        <translation>点击一个点以查看其元数据和最近邻。</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Nearest points (cosine distance):</source>
        <translation>最近的点（余弦距离）：</translation>
    </message>
    <message>
        <source>Reading and projecting the embedding…</source>
        <translation>正在读取并投影嵌入…</translation>
    </message>
    <message>
        <source>%1 points × %2 dimensions · PCA: the %3 components shown hold %4% of the variance</source>
        <translation>%1 个点 × %2 维 · PCA：显示的 %3 个主成分占方差的 %4%</translation>
    </message>
    <message>
        <source>PCA: the first two principal components. t-SNE: Barnes-Hut t-SNE in 2-D, which keeps neighbours together.</source>
        <translation>PCA：前两个主成分。t-SNE：二维 Barnes-Hut t-SNE，使近邻保持在一起。</translation>
    </message>
    <message>
        <source>Perplexity</source>
        <translation>困惑度</translation>
    </message>
    <message>
        <source>t-SNE: about how many neighbours each point keeps close</source>
        <translation>t-SNE：每个点大约保持多少个近邻靠近</translation>
    </message>
    <message>
        <source>t-SNE: iteration %1 of %2…</source>
        <translation>t-SNE：第 %1 次迭代，共 %2 次…</translation>
    </message>
    <message>
        <source>t-SNE: %1 iterations, perplexity %2</source>
        <translation>t-SNE：%1 次迭代，困惑度 %2</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Draw each point as its image from the embedding&apos;s sprite</source>
        <translation>将每个点绘制为嵌入精灵图中的对应图像</translation>
    </message>
    <message>
        <source>3-D</source>
        <translation>三维</translation>
    </message>
    <message>
        <source>PCA&apos;s first three components, or t-SNE in three dimensions (an octree), turned by dragging (Shift+drag pans)</source>
        <translation>PCA 的前三个主成分，或三维 t-SNE（八叉树），拖动可旋转（按住 Shift 拖动可平移）</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::RunsPanel</name>
    <message>
        <source>Change Colour…</source>
        <translation>更改颜色…</translation>
    </message>
    <message>
        <source>Show Only This Run</source>
        <translation>只显示此运行</translation>
    </message>
    <message>
        <source>Show All Runs</source>
        <translation>显示所有运行</translation>
    </message>
    <message>
        <source>Filter runs (regex)</source>
        <translation>筛选运行（正则表达式）</translation>
    </message>
    <message>
        <source>Tick to show a run; double-click to change its colour</source>
        <translation>勾选以显示运行；双击可更改其颜色</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>显示 %1 个</translation>
    </message>
    <message>
        <source>Colour of %1</source>
        <translation>%1 的颜色</translation>
    </message>
    <message>
        <source>Delete Run Folder…</source>
        <translation>删除运行文件夹…</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::ScalarChart</name>
    <message>
        <source>Save Image as PNG…</source>
        <translation>将图像另存为 PNG…</translation>
    </message>
    <message>
        <source>Save Image as SVG…</source>
        <translation>将图像另存为 SVG…</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <source>Reset the zoom (or double-click the chart)</source>
        <translation>重置缩放（或双击图表）</translation>
    </message>
    <message>
        <source>CSV</source>
        <translation>CSV</translation>
    </message>
    <message>
        <source>Download CSV…</source>
        <translation>下载 CSV…</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Download JSON…</source>
        <translation>下载 JSON…</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>Save the chart as an image</source>
        <translation>将图表保存为图像</translation>
    </message>
    <message>
        <source>No data for the visible runs.</source>
        <translation>可见的运行没有数据。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Smoothed</source>
        <translation>平滑值</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>相对时间</translation>
    </message>
    <message>
        <source>No data to download</source>
        <translation>没有可下载的数据</translation>
    </message>
    <message>
        <source>Download JSON</source>
        <translation>下载 JSON</translation>
    </message>
    <message>
        <source>Download CSV</source>
        <translation>下载 CSV</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Download failed</source>
        <translation>下载失败</translation>
    </message>
    <message>
        <source>Save Image as SVG</source>
        <translation>将图像另存为 SVG</translation>
    </message>
    <message>
        <source>Save Image as PNG</source>
        <translation>将图像另存为 PNG</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Save failed</source>
        <translation>保存失败</translation>
    </message>
    <message>
        <source>Reset Zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Take this chart out of the Pinned section</source>
        <translation>将此图表移出“已固定”部分</translation>
    </message>
    <message>
        <source>Show this chart again in the Pinned section at the top</source>
        <translation>在顶部的“已固定”部分再显示一次此图表</translation>
    </message>
    <message>
        <source>Shrink</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Enlarge</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Back to the card&apos;s usual size</source>
        <translation>恢复卡片的常规大小</translation>
    </message>
    <message>
        <source>Show this chart across the whole width</source>
        <translation>以整个宽度显示此图表</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::ScalarsView</name>
    <message>
        <source>Filter tags (regular expressions supported)</source>
        <translation>筛选标签（支持正则表达式）</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Horizontal axis</source>
        <translation>横轴</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>相对时间</translation>
    </message>
    <message>
        <source>Wall</source>
        <translation>挂钟时间</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数刻度</translation>
    </message>
    <message>
        <source>Ignore outliers in chart scaling</source>
        <translation>缩放图表时忽略离群值</translation>
    </message>
    <message>
        <source>No scalar data. Scalars appear here when a run writes tf.summary.scalar.</source>
        <translation>没有标量数据。运行写入 tf.summary.scalar 后，标量会显示在这里。</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1</source>
        <translation>无效的正则表达式：%1</translation>
    </message>
    <message>
        <source>Exponential</source>
        <translation>指数</translation>
    </message>
    <message>
        <source>Moving average</source>
        <translation>移动平均</translation>
    </message>
    <message>
        <source>Exponential: TensorBoard&apos;s debiased exponential moving average, by its weight. Moving average: the mean of the last N samples.</source>
        <translation>指数：TensorBoard 的去偏指数移动平均，按其权重。移动平均：最近 N 个样本的均值。</translation>
    </message>
    <message>
        <source> samples</source>
        <translation> 个样本</translation>
    </message>
    <message>
        <source>Samples in the moving average&apos;s window and the envelope&apos;s</source>
        <translation>移动平均窗口与包络窗口中的样本数</translation>
    </message>
    <message>
        <source>Min/max envelope</source>
        <translation>最小/最大包络</translation>
    </message>
    <message>
        <source>Shade the range between the least and the greatest value of each window</source>
        <translation>为每个窗口的最小值与最大值之间的范围着色</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>已固定</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::TagCardGrid</name>
    <message>
        <source>Filter tags (regular expressions supported)</source>
        <translation>筛选标签（支持正则表达式）</translation>
    </message>
    <message numerus="yes">
        <source>%1  (%n card(s))</source>
        <translation>
            <numerusform>%1  （%n 张卡片）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::TextCard</name>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Cannot show this text summary: %1</source>
        <translation>无法显示此文本摘要：%1</translation>
    </message>
</context>
<context>
    <name>tstudio::dashboard::TextView</name>
    <message>
        <source>**Warning:** this text summary has %1 dimensions, but only tables of 2 dimensions are shown: this is the slice [0, …, 0, :, :].</source>
        <translation>**警告：**此文本摘要有 %1 维，但只能以二维表格显示：这里显示的是切片 [0, …, 0, :, :]。</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>(%1 of %2 rows, %3 of %4 columns shown)</source>
        <translation>（显示 %2 行中的 %1 行，%4 列中的 %3 列）</translation>
    </message>
    <message>
        <source>No text data. Write text summaries (tf.summary.text) to the log directory.</source>
        <translation>没有文本数据。请向日志目录写入文本摘要（tf.summary.text）。</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::BreakpointListModel</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>操作类型</translation>
    </message>
    <message>
        <source>Name regex</source>
        <translation>名称正则表达式</translation>
    </message>
    <message>
        <source>Any node</source>
        <translation>任意节点</translation>
    </message>
    <message>
        <source>always</source>
        <translation>始终</translation>
    </message>
    <message>
        <source>Unknown breakpoint target &apos;%1&apos;: expected node, op, regex or any</source>
        <translation>未知的断点目标“%1”：应为 node、op、regex 或 any</translation>
    </message>
    <message>
        <source>On</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Condition</source>
        <translation>条件</translation>
    </message>
    <message>
        <source>has_inf_or_nan, has_nan, has_inf, or a statistic (min, max, mean, std, abs_max) compared with a number, e.g. max &gt; 100; iteration compared with a whole number (iteration == 3) pauses a node inside a while loop in those iterations only; empty pauses before the node runs</source>
        <translation>has_inf_or_nan、has_nan、has_inf，或某个统计量（min、max、mean、std、abs_max）与一个数比较，例如 max &gt; 100；iteration 与一个整数比较（iteration == 3）时，while 循环内的节点只在这些迭代中暂停；留空则在节点运行前暂停</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::BreakpointListView</name>
    <message>
        <source>node:NAME, op:TYPE, regex:PATTERN or any, optionally with if has_nan, has_inf, max &gt; 100, ...</source>
        <translation>node:NAME、op:TYPE、regex:PATTERN 或 any，可附加 if has_nan、has_inf、max &gt; 100 等条件</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove the selected breakpoints</source>
        <translation>删除选中的断点</translation>
    </message>
    <message>
        <source>A breakpoint as one line, e.g. op:MatMul, any if has_inf_or_nan or node:while/add if iteration == 3; Return adds it</source>
        <translation>一行写一个断点，例如 op:MatMul、any if has_inf_or_nan 或 node:while/add if iteration == 3；按回车添加</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::DebuggerView</name>
    <message>
        <source>Breakpoints not applied: %1</source>
        <translation>断点未应用：%1</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>No run attached</source>
        <translation>未附加运行</translation>
    </message>
    <message>
        <source>Ready: Run (F5) or Step (F10) starts a run</source>
        <translation>就绪：按“运行”(F5) 或“单步”(F10) 开始运行</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>正在运行</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>stepped over scope</source>
        <translation>已跳过作用域</translation>
    </message>
    <message>
        <source>run to cursor</source>
        <translation>运行到光标处</translation>
    </message>
    <message>
        <source>run to op %1</source>
        <translation>运行到操作 %1</translation>
    </message>
    <message>
        <source>breakpoint %1</source>
        <translation>断点 %1</translation>
    </message>
    <message>
        <source>Paused after %1 (%2)</source>
        <translation>已在 %1 之后暂停（%2）</translation>
    </message>
    <message>
        <source>Paused before %1 (%2)</source>
        <translation>已在 %1 之前暂停（%2）</translation>
    </message>
    <message>
        <source> in frame %1, iteration %2</source>
        <translation>，位于帧 %1，第 %2 次迭代</translation>
    </message>
    <message>
        <source>Finished run %1</source>
        <translation>运行 %1 已完成</translation>
    </message>
    <message>
        <source>Run %1 stopped</source>
        <translation>运行 %1 已停止</translation>
    </message>
    <message>
        <source>Run %1 failed: %2</source>
        <translation>运行 %1 失败：%2</translation>
    </message>
    <message>
        <source>input %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <source>output %1</source>
        <translation>输出 %1</translation>
    </message>
    <message>
        <source>dead</source>
        <translation>死张量</translation>
    </message>
    <message>
        <source>uninitialized</source>
        <translation>未初始化</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a tensor name (expected node:output)</source>
        <translation>“%1”不是张量名称（应为 节点:输出）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; holds no value</source>
        <translation>“%1”没有值</translation>
    </message>
    <message>
        <source>no run is attached</source>
        <translation>未附加运行</translation>
    </message>
    <message>
        <source>No value for %1: %2</source>
        <translation>%1 没有值：%2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Continue the paused run, or start a run</source>
        <translation>继续已暂停的运行，或开始运行</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Run one node and pause before the next</source>
        <translation>运行一个节点，并在下一个节点之前暂停</translation>
    </message>
    <message>
        <source>Step over scope</source>
        <translation>跳过作用域</translation>
    </message>
    <message>
        <source>Run until the first node outside the paused node&apos;s name scope</source>
        <translation>运行到已暂停节点的名称作用域之外的第一个节点</translation>
    </message>
    <message>
        <source>Run to cursor</source>
        <translation>运行到光标处</translation>
    </message>
    <message>
        <source>Run until just before the node selected in the graph</source>
        <translation>运行到图中选中节点之前</translation>
    </message>
    <message>
        <source>Continue runs:</source>
        <translation>继续运行次数：</translation>
    </message>
    <message>
        <source>Run on, ignoring breakpoints, until this many session runs have finished, then pause</source>
        <translation>忽略断点继续运行，直到完成指定次数的会话运行后再暂停</translation>
    </message>
    <message>
        <source>Session runs to finish before pausing again</source>
        <translation>再次暂停前要完成的会话运行次数</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Pause before the next node</source>
        <translation>在下一个节点之前暂停</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Cancel the run</source>
        <translation>取消运行</translation>
    </message>
    <message>
        <source>Stop on NaN/Inf</source>
        <translation>遇 NaN/Inf 时停止</translation>
    </message>
    <message>
        <source>Pause after the first node whose output holds NaN or Inf</source>
        <translation>在第一个输出含 NaN 或 Inf 的节点之后暂停</translation>
    </message>
    <message>
        <source>Keep values</source>
        <translation>保留值</translation>
    </message>
    <message>
        <source>Keep every executed node&apos;s outputs, so that any of them can be inspected</source>
        <translation>保留每个已执行节点的输出，以便查看其中任意一个</translation>
    </message>
    <message>
        <source>Execution</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>Breakpoints</source>
        <translation>断点</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Node info</source>
        <translation>节点信息</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>%1, fed</source>
        <comment>a tensor&apos;s role, and that the run was given its value</comment>
        <translation>%1，已馈送</translation>
    </message>
    <message>
        <source>No run to debug yet</source>
        <translation>暂无可调试的运行</translation>
    </message>
    <message>
        <source>Open a project, switch on Debug in the Training panel and press Start: the run stops at the breakpoints you set (F9 on a node in the node editor or the graph), and here you step through its ops and look at every tensor.</source>
        <translation>打开项目，在训练面板中开启“调试”并按“开始”：运行会在您设置的断点处停止（在节点编辑器或计算图中的节点上按 F9 设置），您可以在此逐个单步执行其操作并查看每个张量。</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::DebuggingTab</name>
    <message>
        <source>Debugger</source>
        <translation>调试器</translation>
    </message>
    <message>
        <source>Debugger — %1</source>
        <translation>调试器 — %1</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::ExecutionFilterModel</name>
    <message>
        <source>name filter: %1</source>
        <translation>名称筛选条件：%1</translation>
    </message>
    <message>
        <source>op filter: %1</source>
        <translation>操作筛选条件：%1</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::ExecutionListModel</name>
    <message>
        <source>dead</source>
        <translation>死张量</translation>
    </message>
    <message>
        <source>%1 in frame %2, iteration %3</source>
        <translation>%1，位于帧 %2，第 %3 次迭代</translation>
    </message>
    <message>
        <source>%1 (iteration %2)</source>
        <translation>%1（第 %2 次迭代）</translation>
    </message>
    <message>
        <source>Position in the run&apos;s execution order</source>
        <translation>在本次运行执行顺序中的位置</translation>
    </message>
    <message>
        <source>Bytes of the node&apos;s outputs</source>
        <translation>节点输出的字节数</translation>
    </message>
    <message>
        <source>Start of the node&apos;s computation, from the start of the run</source>
        <translation>节点开始计算的时刻（从运行开始算起）</translation>
    </message>
    <message>
        <source>Compute time of the node</source>
        <translation>节点的计算时间</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>t (ms)</source>
        <translation>t（毫秒）</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::ExecutionListView</name>
    <message>
        <source>Showing %1 of %2 executed nodes</source>
        <translation>显示 %2 个已执行节点中的 %1 个</translation>
    </message>
    <message>
        <source>Invalid %1</source>
        <translation>无效的%1</translation>
    </message>
    <message>
        <source>Node:</source>
        <translation>节点：</translation>
    </message>
    <message>
        <source>regex</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <source>Show the nodes whose name matches this regular expression</source>
        <translation>显示名称与此正则表达式匹配的节点</translation>
    </message>
    <message>
        <source>Op:</source>
        <translation>操作：</translation>
    </message>
    <message>
        <source>Show the nodes whose op type matches this regular expression</source>
        <translation>显示操作类型与此正则表达式匹配的节点</translation>
    </message>
    <message>
        <source>All devices</source>
        <translation>所有设备</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::NodeInfoView</name>
    <message numerus="yes">
        <source>%n tensor(s)</source>
        <translation>
            <numerusform>%n 个张量</numerusform>
        </translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>Node &apos;%1&apos; is not in the graph</source>
        <translation>节点“%1”不在图中</translation>
    </message>
    <message>
        <source>(not in graph)</source>
        <translation>（不在图中）</translation>
    </message>
    <message>
        <source>%1 (Ctrl)</source>
        <translation>%1（控制）</translation>
    </message>
    <message>
        <source>Depth:</source>
        <translation>深度：</translation>
    </message>
    <message>
        <source>How many levels of inputs and consumers to list</source>
        <translation>要列出的输入和使用者的层数</translation>
    </message>
    <message>
        <source>Attribute</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>(no device requested)</source>
        <translation>（未请求设备）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Op: %2 · Device: %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;操作：%2 · 设备：%3</translation>
    </message>
    <message>
        <source>Select a node to see its attributes, inputs and consumers.</source>
        <translation>选择一个节点以查看其属性、输入和使用者。</translation>
    </message>
    <message>
        <source>Attributes (%1)</source>
        <translation>属性（%1）</translation>
    </message>
    <message>
        <source>Inputs (%1)</source>
        <translation>输入（%1）</translation>
    </message>
    <message>
        <source>Consumers (%1)</source>
        <translation>使用者（%1）</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::TensorHeatMap</name>
    <message>
        <source>[%1, %2] = %3</source>
        <translation>[%1, %2] = %3</translation>
    </message>
    <message>
        <source>No 2-D tensor to draw</source>
        <translation>没有可绘制的二维张量</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation>+Inf</translation>
    </message>
    <message>
        <source>-Inf</source>
        <translation>-Inf</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::TensorHistogramChart</name>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>[%1, %2%3: %4</source>
        <translation>[%1, %2%3：%4</translation>
    </message>
    <message>
        <source>No finite values to count</source>
        <translation>没有可计数的有限值</translation>
    </message>
    <message numerus="yes">
        <source>%Ln finite value(s)</source>
        <translation>
            <numerusform>%Ln 个有限值</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %Ln NaN or infinite value(s) not counted</source>
        <translation>
            <numerusform>；%Ln 个 NaN 或无穷值未计入</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::TensorImageGrid</name>
    <message>
        <source>The tensor holds no value.</source>
        <translation>该张量没有值。</translation>
    </message>
    <message>
        <source>Images need real numbers; %1 tensors have none.</source>
        <translation>图像需要实数；%1 类型张量不含实数。</translation>
    </message>
    <message>
        <source>Images need a [batch, height, width, channels] or [height, width, channels] tensor with 1, 3 or 4 channels; this one is %1.</source>
        <translation>图像需要形状为 [batch, height, width, channels] 或 [height, width, channels] 且通道数为 1、3 或 4 的张量；此张量为 %1。</translation>
    </message>
    <message>
        <source>The tensor %1 has no elements.</source>
        <translation>张量 %1 没有元素。</translation>
    </message>
    <message>
        <source>Images of %1 are too large to draw.</source>
        <translation>%1 的图像过大，无法绘制。</translation>
    </message>
    <message>
        <source>image %1, pixel (%2, %3)</source>
        <translation>图像 %1，像素 (%2, %3)</translation>
    </message>
    <message>
        <source>pixel (%1, %2)</source>
        <translation>像素 (%1, %2)</translation>
    </message>
    <message>
        <source>No image-like tensor to draw</source>
        <translation>没有可绘制为图像的张量</translation>
    </message>
    <message>
        <source>grey</source>
        <translation>灰度</translation>
    </message>
    <message>
        <source>RGB</source>
        <translation>RGB</translation>
    </message>
    <message>
        <source>RGBA</source>
        <translation>RGBA</translation>
    </message>
    <message numerus="yes">
        <source>%n image(s) of %1 x %2, %3</source>
        <translation>
            <numerusform>%n 张 %1 x %2 的图像，%3</numerusform>
        </translation>
    </message>
    <message>
        <source> (the first %1 shown; slice to see others)</source>
        <translation>（显示前 %1 张；切片可查看其他图像）</translation>
    </message>
    <message>
        <source>; values as they are (0 to 255)</source>
        <translation>；按原值显示（0 到 255）</translation>
    </message>
    <message>
        <source>; %1 (black) to %2 (white)</source>
        <translation>；%1（黑）到 %2（白）</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::TensorInspector</name>
    <message>
        <source>Select a tensor (an input or output of an executed node) to inspect it.</source>
        <translation>选择一个张量（已执行节点的输入或输出）以查看它。</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>监视</translation>
    </message>
    <message>
        <source>Keep this tensor&apos;s value after every session run and chart its history</source>
        <translation>在每次会话运行后保留此张量的值，并绘制其历史图表</translation>
    </message>
    <message>
        <source>Save .npy...</source>
        <translation>保存 .npy...</translation>
    </message>
    <message>
        <source>Save the whole tensor as a NumPy .npy file</source>
        <translation>将整个张量保存为 NumPy .npy 文件</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>-Inf</source>
        <translation>-Inf</translation>
    </message>
    <message>
        <source>negative</source>
        <translation>负数</translation>
    </message>
    <message>
        <source>zero</source>
        <translation>零</translation>
    </message>
    <message>
        <source>positive</source>
        <translation>正数</translation>
    </message>
    <message>
        <source>+Inf</source>
        <translation>+Inf</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>&amp;Slice</source>
        <translation>切片(&amp;S)</translation>
    </message>
    <message>
        <source>whole tensor; e.g. [::5, :2] or [0, ..., -1]</source>
        <translation>整个张量；例如 [::5, :2] 或 [0, ..., -1]</translation>
    </message>
    <message>
        <source>A NumPy basic index applied to the table, the heat map and the images</source>
        <translation>应用于表格、热力图和图像的 NumPy 基本索引</translation>
    </message>
    <message>
        <source>&amp;Highlight</source>
        <translation>高亮(&amp;H)</translation>
    </message>
    <message>
        <source>e.g. [[-inf, -1], [1, inf]]</source>
        <translation>例如 [[-inf, -1], [1, inf]]</translation>
    </message>
    <message>
        <source>Value ranges to highlight, as tfdbg&apos;s pt -r: [low, high] or a list of them</source>
        <translation>要高亮的值范围，同 tfdbg 的 pt -r：[low, high] 或其列表</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Heat map</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>图像</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>&amp;Show run:</source>
        <translation>显示运行(&amp;S)：</translation>
    </message>
    <message>
        <source>Highlighting needs real numbers; %1 tensors have none.</source>
        <translation>高亮需要实数；%1 类型张量不含实数。</translation>
    </message>
    <message>
        <source>%1 of %2 values lie in the highlighted ranges.</source>
        <translation>%2 个值中有 %1 个位于高亮范围内。</translation>
    </message>
    <message>
        <source>uninitialized</source>
        <translation>未初始化</translation>
    </message>
    <message>
        <source>shape %1</source>
        <translation>形状 %1</translation>
    </message>
    <message>
        <source>value of session run %1 (history)</source>
        <translation>会话运行 %1 的值（历史）</translation>
    </message>
    <message>
        <source>The tensor holds no value yet (a variable before its first assignment).</source>
        <translation>该张量尚无值（变量尚未首次赋值）。</translation>
    </message>
    <message>
        <source>No health summary: %1 tensors hold no real numbers.</source>
        <translation>无健康摘要：%1 类型张量不含实数。</translation>
    </message>
    <message>
        <source>Over the whole tensor; min, max, mean and std (population) of the finite values</source>
        <translation>针对整个张量；有限值的最小值、最大值、均值和（总体）标准差</translation>
    </message>
    <message>
        <source>Slice %1 does not fit this tensor (%2); showing the whole tensor.</source>
        <translation>切片 %1 不适用于此张量（%2）；显示整个张量。</translation>
    </message>
    <message>
        <source>No tensor is selected.</source>
        <translation>未选中张量。</translation>
    </message>
    <message>
        <source>%1 tensors hold no real numbers.</source>
        <translation>%1 类型张量不含实数。</translation>
    </message>
    <message>
        <source>History charts real numbers; %1 tensors hold none.</source>
        <translation>历史图表只绘制实数；%1 类型张量不含实数。</translation>
    </message>
    <message>
        <source>No history yet: press Watch and run the session again to record this tensor after every run.</source>
        <translation>尚无历史：按“监视”后再次运行会话，即可在每次运行后记录此张量。</translation>
    </message>
    <message>
        <source>The tensor holds no value yet.</source>
        <translation>该张量尚无值。</translation>
    </message>
    <message>
        <source>%1 tensors have no values to list.</source>
        <translation>%1 类型张量没有可列出的值。</translation>
    </message>
    <message>
        <source>The tensor has no elements.</source>
        <translation>该张量没有元素。</translation>
    </message>
    <message>
        <source>The tensor has no finite values.</source>
        <translation>该张量没有有限值。</translation>
    </message>
    <message>
        <source>A heat map needs a 2-D tensor; %1 is %2-D. Slice it to two axes, e.g. [0] or [..., 0].</source>
        <translation>热力图需要二维张量；%1为 %2 维。请将其切片为两个轴，例如 [0] 或 [..., 0]。</translation>
    </message>
    <message>
        <source>the tensor</source>
        <translation>该张量</translation>
    </message>
    <message>
        <source>the slice</source>
        <translation>该切片</translation>
    </message>
    <message>
        <source>The slice has no elements.</source>
        <translation>该切片没有元素。</translation>
    </message>
    <message>
        <source>Slice: %1</source>
        <translation>切片：%1</translation>
    </message>
    <message>
        <source>Highlight: %1</source>
        <translation>高亮：%1</translation>
    </message>
    <message>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <source>Highlight</source>
        <translation>高亮</translation>
    </message>
    <message>
        <source>Current value</source>
        <translation>当前值</translation>
    </message>
    <message>
        <source>Session run %1</source>
        <translation>会话运行 %1</translation>
    </message>
    <message>
        <source>There is no tensor value to save.</source>
        <translation>没有可保存的张量值。</translation>
    </message>
    <message>
        <source>Cannot save %1 tensors as .npy.</source>
        <translation>无法将 %1 类型张量保存为 .npy。</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save tensor as .npy</source>
        <translation>将张量保存为 .npy</translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation>NumPy 数组 (*.npy)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln element(s)</source>
        <translation>
            <numerusform>%Ln 个元素</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::TensorTableModel</name>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>tstudio::debugger_ui::ValueHistoryChart</name>
    <message>
        <source>run %1
min %2
mean %3
max %4</source>
        <translation>运行 %1
最小值 %2
均值 %3
最大值 %4</translation>
    </message>
    <message>
        <source>No values recorded yet: watch the tensor and run the session</source>
        <translation>尚未记录任何值：请监视该张量并运行会话</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>session run</source>
        <translation>会话运行</translation>
    </message>
</context>
<context>
    <name>tstudio::diff_ui::ModelDiffView</name>
    <message>
        <source>%1 ↔ %2</source>
        <translation>%1 ↔ %2</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>Removed (%1)</source>
        <translation>删除 (%1)</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Added (%1)</source>
        <translation>新增 (%1)</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Renamed (%1)</source>
        <translation>重命名 (%1)</translation>
    </message>
    <message>
        <source>renamed</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Changed (%1)</source>
        <translation>改变 (%1)</translation>
    </message>
    <message>
        <source>op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>output shapes</source>
        <translation>输出形状</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Dtype and shape</source>
        <translation>数据类型与形状</translation>
    </message>
    <message>
        <source>Max |Δ|</source>
        <translation>最大 |Δ|</translation>
    </message>
    <message>
        <source>Relative change</source>
        <translation>相对变化</translation>
    </message>
    <message>
        <source>Changed elements</source>
        <translation>改变的元素</translation>
    </message>
    <message>
        <source>Unchanged (%1)</source>
        <translation>未变 (%1)</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Filter names</source>
        <translation>过滤名称</translation>
    </message>
    <message>
        <source>Comparing %1 with %2…</source>
        <translation>正在比较 %1 与 %2…</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>无法比较：%1</translation>
    </message>
    <message>
        <source>Choose File ▸ Compare… to compare two graphs or two checkpoints.</source>
        <translation>选择 文件 ▸ 比较… 来比较两个图或两个检查点。</translation>
    </message>
    <message>
        <source>Graphs %1 (%2 nodes) and %3 (%4 nodes): %5 unchanged, %6 changed, %7 renamed, %8 removed, %9 added</source>
        <translation>图 %1（%2 个节点）与 %3（%4 个节点）：%5 个未变，%6 个改变，%7 个重命名，%8 个删除，%9 个新增</translation>
    </message>
    <message>
        <source>Checkpoints %1 and %2: %3 tensors in both (%4 changed), %5 removed, %6 added</source>
        <translation>检查点 %1 与 %2：%3 个张量两者都有（%4 个改变），%5 个删除，%6 个新增</translation>
    </message>
    <message>
        <source>attr %1</source>
        <translation>属性 %1</translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::CheckpointVariablesView</name>
    <message numerus="yes">
        <source>partitioned into %n slice(s)</source>
        <translation>
            <numerusform>已分为 %n 个切片</numerusform>
        </translation>
    </message>
    <message>
        <source>no statistics for %1 tensors</source>
        <translation>%1 类型张量没有统计信息</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>DType</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>均值</translation>
    </message>
    <message>
        <source>Std</source>
        <translation>标准差</translation>
    </message>
    <message>
        <source>Sparsity</source>
        <translation>稀疏度</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>%1 elements, %2 bytes stored</source>
        <translation>%1 个元素，存储 %2 字节</translation>
    </message>
    <message>
        <source>%1 NaN, %2 -inf, %3 +inf, %4 zeros of %5 elements</source>
        <translation>%5 个元素中：%1 个 NaN，%2 个 -inf，%3 个 +inf，%4 个零</translation>
    </message>
    <message>
        <source>no finite values</source>
        <translation>没有有限值</translation>
    </message>
    <message>
        <source>Cannot read the checkpoint: %1</source>
        <translation>无法读取检查点：%1</translation>
    </message>
    <message>
        <source>Cannot read the checkpoint %1: %2</source>
        <translation>无法读取检查点 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s)</source>
        <translation>
            <numerusform>%n 个张量</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n tensor(s)</source>
        <translation>
            <numerusform>%1 / %n 个张量</numerusform>
        </translation>
    </message>
    <message>
        <source>Export tensor as .npy</source>
        <translation>将张量导出为 .npy</translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation>NumPy 数组 (*.npy)</translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation>已将 %1 导出到 %2</translation>
    </message>
    <message>
        <source>Export to %1 failed: %2</source>
        <translation>导出到 %1 失败：%2</translation>
    </message>
    <message>
        <source>Filter tensors by name</source>
        <translation>按名称筛选张量</translation>
    </message>
    <message>
        <source>Export as .npy…</source>
        <translation>导出为 .npy…</translation>
    </message>
    <message>
        <source>Write the selected tensor to a NumPy .npy file</source>
        <translation>将选中的张量写入 NumPy .npy 文件</translation>
    </message>
    <message>
        <source>Statistics %v of %m</source>
        <translation>统计 %v / %m</translation>
    </message>
    <message>
        <source>No checkpoint is open to read %1 from</source>
        <translation>没有打开的检查点可供读取 %1</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>checkpoint %1</source>
        <translation>检查点 %1</translation>
    </message>
    <message>
        <source>Show values</source>
        <translation>显示值</translation>
    </message>
    <message>
        <source>Read the selected tensor and show its values in a table (double-click a row)</source>
        <translation>读取选中的张量并在表格中显示其值（或双击某一行）</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: %2</source>
        <translation>“%1”：%2</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) of the checkpoint %1 cannot be read; the first, %2</source>
        <translation>
            <numerusform>检查点 %1 中有 %n 个张量无法读取；第一个是 %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::GraphCanvas</name>
    <message>
        <source>%1 (%2 members)</source>
        <translation>%1（%2 个成员）</translation>
    </message>
    <message>
        <source>%1 × %2 ops</source>
        <translation>%1 × %2 个操作</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s)</source>
        <translation>
            <numerusform>%n 个操作</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%n op(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%n 个操作</numerusform>
        </translation>
    </message>
    <message>
        <source>Functions</source>
        <translation>函数</translation>
    </message>
    <message numerus="yes">
        <source>%n function(s)</source>
        <translation>
            <numerusform>%n 个函数</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>function · %n node(s)</source>
        <translation>
            <numerusform>函数 · %n 个节点</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::GraphMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>概览：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::GraphViewer</name>
    <message>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <source>Building the name-scope hierarchy…</source>
        <translation>正在构建名称作用域层次…</translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source> Colour by: </source>
        <translation> 着色依据：</translation>
    </message>
    <message>
        <source>Structure</source>
        <translation>结构</translation>
    </message>
    <message>
        <source>Device (requested)</source>
        <translation>设备（请求的）</translation>
    </message>
    <message>
        <source>Device (placed by the engine)</source>
        <translation>设备（引擎分配的）</translation>
    </message>
    <message>
        <source>Compute time</source>
        <translation>计算时间</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Runnable here</source>
        <translation>可在此运行</translation>
    </message>
    <message>
        <source> Step: </source>
        <translation> 步：</translation>
    </message>
    <message>
        <source> Graph: </source>
        <translation> 计算图：</translation>
    </message>
    <message>
        <source>Left to right</source>
        <translation>从左到右</translation>
    </message>
    <message>
        <source>Lay out from left to right instead of top to bottom</source>
        <translation>从左到右布局，而不是从上到下</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Zoom to fit the whole graph (%1)</source>
        <translation>缩放以显示整个计算图（%1）</translation>
    </message>
    <message>
        <source>Zoom to selection</source>
        <translation>缩放到选中项</translation>
    </message>
    <message>
        <source>Trace inputs</source>
        <translation>追踪输入</translation>
    </message>
    <message>
        <source>Highlight every node the selected node depends on (%1)</source>
        <translation>高亮选中节点依赖的所有节点（%1）</translation>
    </message>
    <message>
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Find nodes by name, op type or regular expression (%1)</source>
        <translation>按名称、操作类型或正则表达式查找节点（%1）</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Export image…</source>
        <translation>导出图像…</translation>
    </message>
    <message>
        <source>Save the view as PNG or SVG (%1)</source>
        <translation>将视图保存为 PNG 或 SVG（%1）</translation>
    </message>
    <message>
        <source>Find nodes…</source>
        <translation>查找节点…</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>操作类型</translation>
    </message>
    <message>
        <source>Regular expression</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配（Shift+Enter）</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配（Enter）</translation>
    </message>
    <message>
        <source>Close the find bar</source>
        <translation>关闭查找栏</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Problems (%1)</source>
        <translation>问题（%1）</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Opening %1</source>
        <translation>正在打开 %1</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Loading was cancelled.</source>
        <translation>加载已取消。</translation>
    </message>
    <message>
        <source>Cannot show this graph:
%1</source>
        <translation>无法显示此计算图：
%1</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) shown · laid out in %1 ms</source>
        <translation>
            <numerusform>显示 %n 个节点 · 布局耗时 %1 毫秒</numerusform>
        </translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>%1%2 (step %3)</source>
        <translation>%1%2（第 %3 步）</translation>
    </message>
    <message>
        <source>RunMetadata %1: %2</source>
        <translation>RunMetadata %1：%2</translation>
    </message>
    <message>
        <source>control dependency</source>
        <translation>控制依赖</translation>
    </message>
    <message>
        <source>reference (the op writes its input)</source>
        <translation>引用（该操作会写入其输入）</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s)</source>
        <translation>
            <numerusform>%n 个张量</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n reference edge(s)</source>
        <translation>
            <numerusform>%n 条引用边</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n control dependenc(ies)</source>
        <translation>
            <numerusform>%n 个控制依赖</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 elements over %2 sized tensor(s)</source>
        <translation>%2 个已知大小的张量共 %1 个元素</translation>
    </message>
    <message>
        <source>Click to show %1</source>
        <translation>单击以显示 %1</translation>
    </message>
    <message>
        <source>Export graph image</source>
        <translation>导出计算图图像</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Could not export %1: %2</source>
        <translation>无法导出 %1：%2</translation>
    </message>
    <message>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Open the selected name scope (or the whole graph) in the node editor</source>
        <translation>在节点编辑器中打开选中的名称作用域（或整个计算图）</translation>
    </message>
    <message>
        <source>Show in Timeline</source>
        <translation>在时间线中显示</translation>
    </message>
    <message>
        <source>Select this op&apos;s execution in the profiler&apos;s timeline</source>
        <translation>在性能分析器的时间线中选中此操作的执行</translation>
    </message>
    <message>
        <source>Toggle Breakpoint</source>
        <translation>切换断点</translation>
    </message>
    <message>
        <source>Pause the debugger before this op runs (%1)</source>
        <translation>在此操作运行前让调试器暂停（%1）</translation>
    </message>
    <message>
        <source>Show legend</source>
        <translation>显示图例</translation>
    </message>
    <message>
        <source>Show minimap</source>
        <translation>显示缩略图</translation>
    </message>
    <message>
        <source>No graph to show</source>
        <translation>没有可显示的计算图</translation>
    </message>
    <message>
        <source>Open a GraphDef (.pb, .pbtxt), a MetaGraph, a SavedModel, a checkpoint or a log directory with File ▸ Open File… or Open Folder…, or drop it on the window. A graph without any node shows this page too.</source>
        <translation>使用“文件 ▸ 打开文件…”或“打开文件夹…”打开 GraphDef（.pb、.pbtxt）、MetaGraph、SavedModel、检查点或日志目录，或将其拖放到窗口上。不含任何节点的计算图也会显示此页面。</translation>
    </message>
    <message>
        <source>Signatures</source>
        <translation>签名</translation>
    </message>
    <message>
        <source>Find next match</source>
        <translation>查找下一个匹配项</translation>
    </message>
    <message>
        <source>Find previous match</source>
        <translation>查找上一个匹配项</translation>
    </message>
    <message>
        <source>MetaGraph</source>
        <translation>MetaGraph</translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::MetaGraphView</name>
    <message>
        <source>Written by</source>
        <translation>写入者</translation>
    </message>
    <message>
        <source>TensorFlow (version not recorded)</source>
        <translation>TensorFlow（未记录版本）</translation>
    </message>
    <message>
        <source>TensorFlow %1</source>
        <translation>TensorFlow %1</translation>
    </message>
    <message>
        <source>Git version %1</source>
        <translation>Git 版本 %1</translation>
    </message>
    <message>
        <source>Tags: %1</source>
        <translation>标签：%1</translation>
    </message>
    <message>
        <source>Default attrs stripped</source>
        <translation>已去除默认属性</translation>
    </message>
    <message>
        <source>Default attrs kept</source>
        <translation>保留默认属性</translation>
    </message>
    <message>
        <source>Saver</source>
        <translation>Saver</translation>
    </message>
    <message>
        <source>No SaverDef</source>
        <translation>没有 SaverDef</translation>
    </message>
    <message>
        <source>%1 checkpoints%2</source>
        <translation>%1 检查点%2</translation>
    </message>
    <message>
        <source>, sharded</source>
        <translation>，分片</translation>
    </message>
    <message>
        <source>Filename tensor: %1</source>
        <translation>文件名张量：%1</translation>
    </message>
    <message>
        <source>Save tensor: %1</source>
        <translation>保存张量：%1</translation>
    </message>
    <message>
        <source>Restore op: %1</source>
        <translation>恢复操作：%1</translation>
    </message>
    <message>
        <source>max_to_keep %1, keep_checkpoint_every_n_hours %2</source>
        <translation>max_to_keep %1，keep_checkpoint_every_n_hours %2</translation>
    </message>
    <message>
        <source>Collections (%1)</source>
        <translation>集合（%1）</translation>
    </message>
    <message>
        <source>%1 — click to select node %2 in the graph</source>
        <translation>%1 — 单击以在图中选择节点 %2</translation>
    </message>
    <message>
        <source>Stripped op list (%1)</source>
        <translation>精简操作列表（%1）</translation>
    </message>
    <message>
        <source>Asset files (%1)</source>
        <translation>资源文件（%1）</translation>
    </message>
    <message>
        <source>%1 (fed to %2)</source>
        <translation>%1（馈送给 %2）</translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::NodePropertiesPanel</name>
    <message>
        <source>(not set)</source>
        <translation>（未设置）</translation>
    </message>
    <message>
        <source>Uncategorized</source>
        <translation>未分类</translation>
    </message>
    <message>
        <source>Op not registered in this engine</source>
        <translation>此引擎中未注册该操作</translation>
    </message>
    <message>
        <source>Requested device: any</source>
        <translation>请求的设备：任意</translation>
    </message>
    <message>
        <source>Requested device: %1</source>
        <translation>请求的设备：%1</translation>
    </message>
    <message>
        <source>Attributes (%1)</source>
        <translation>属性（%1）</translation>
    </message>
    <message>
        <source>malformed input: %1</source>
        <translation>格式错误的输入：%1</translation>
    </message>
    <message>
        <source>control</source>
        <translation>控制</translation>
    </message>
    <message>
        <source>not in the graph</source>
        <translation>不在计算图中</translation>
    </message>
    <message>
        <source>Inputs (%1)</source>
        <translation>输入（%1）</translation>
    </message>
    <message numerus="yes">
        <source>%n more consumer(s)</source>
        <translation>
            <numerusform>另有 %n 个使用者</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n consumer(s)</source>
        <translation>
            <numerusform>%n 个使用者</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n consumer(s)</source>
        <translation>
            <numerusform>%1 — %n 个使用者</numerusform>
        </translation>
    </message>
    <message>
        <source>Outputs (%1)</source>
        <translation>输出（%1）</translation>
    </message>
    <message>
        <source>Name scope</source>
        <translation>名称作用域</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) inside</source>
        <translation>
            <numerusform>内含 %n 个操作</numerusform>
        </translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Placed on: %1</source>
        <translation>分配到：%1</translation>
    </message>
    <message>
        <source>Select a node to see its properties</source>
        <translation>选择一个节点以查看其属性</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Copy the full name to the clipboard</source>
        <translation>将完整名称复制到剪贴板</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>An input argument of the function: the value a caller passes in</source>
        <translation>函数的输入参数：调用方传入的值</translation>
    </message>
    <message>
        <source>A result of the function: what a caller receives as this output</source>
        <translation>函数的结果：调用方从此输出得到的值</translation>
    </message>
    <message>
        <source>A control output of the function: a call is done only once this node has run</source>
        <translation>函数的控制输出：只有此节点运行之后，调用才算完成</translation>
    </message>
    <message>
        <source>Attribute</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>(its op)</source>
        <translation>（操作本身）</translation>
    </message>
    <message>
        <source>Open %1 in the function library</source>
        <translation>在函数库中打开 %1</translation>
    </message>
    <message>
        <source>%1 (not in the graph&apos;s library)</source>
        <translation>%1（不在计算图的函数库中）</translation>
    </message>
    <message>
        <source>Calls functions (%1)</source>
        <translation>调用的函数（%1）</translation>
    </message>
    <message>
        <source>Function of the graph&apos;s library</source>
        <translation>计算图函数库中的函数</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) in its body</source>
        <translation>
            <numerusform>函数体中有 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Gradient function: %1</source>
        <translation>梯度函数：%1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 (in %2)</source>
        <translation>%1（位于 %2）</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Control outputs</source>
        <translation>控制输出</translation>
    </message>
    <message>
        <source>Called by</source>
        <translation>调用方</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用的函数</translation>
    </message>
    <message>
        <source>Function %1</source>
        <translation>函数 %1</translation>
    </message>
    <message>
        <source>Copy &quot;%1&quot;</source>
        <translation>复制“%1”</translation>
    </message>
    <message>
        <source>Copy row</source>
        <translation>复制该行</translation>
    </message>
    <message>
        <source>%1 · %2 value(s)</source>
        <translation>%1 · %2 个值</translation>
    </message>
    <message>
        <source>The value does not parse: %1</source>
        <translation>无法解析该值：%1</translation>
    </message>
    <message>
        <source>%1 node</source>
        <translation>%1 节点</translation>
    </message>
    <message>
        <source>Node %1 (%2)</source>
        <translation>节点 %1（%2）</translation>
    </message>
    <message>
        <source>This scope is also the name of a node: show it</source>
        <translation>此作用域同时也是一个节点的名称：显示该节点</translation>
    </message>
    <message>
        <source>Show values…</source>
        <translation>显示值…</translation>
    </message>
    <message>
        <source>Open the whole tensor in a table, with its histogram and heat map</source>
        <translation>在表格中打开整个张量，并附带其直方图和热力图</translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::SignaturesView</name>
    <message>
        <source>sparse: indices %1, values %2, dense shape %3</source>
        <translation>稀疏：索引 %1，值 %2，稠密形状 %3</translation>
    </message>
    <message>
        <source>(a composite tensor)</source>
        <translation>（复合张量）</translation>
    </message>
    <message>
        <source>%1 — click to select node %2 in the graph</source>
        <translation>%1 — 单击以在计算图中选中节点 %2</translation>
    </message>
    <message>
        <source>Method: %1</source>
        <translation>方法：%1</translation>
    </message>
    <message>
        <source>Inputs (%1)</source>
        <translation>输入（%1）</translation>
    </message>
    <message>
        <source>Outputs (%1)</source>
        <translation>输出（%1）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>This SavedModel has no signatures</source>
        <translation>此 SavedModel 没有签名</translation>
    </message>
</context>
<context>
    <name>tstudio::graph_viewer::TensorValueDialog</name>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>tstudio::layers</name>
    <message>
        <source>1 (grey) or 3 (RGB).</source>
        <translation>1（灰度）或 3（RGB）。</translation>
    </message>
    <message>
        <source>A folder with one subfolder of PNG / JPEG images per class (Keras&apos; image_dataset_from_directory): placeholders &lt;name&gt;/images, &lt;name&gt;/labels.</source>
        <translation>一个文件夹，每个类别一个存放 PNG / JPEG 图像的子文件夹（同 Keras 的 image_dataset_from_directory）：占位符 &lt;name&gt;/images、&lt;name&gt;/labels。</translation>
    </message>
    <message>
        <source>Add a bias vector.</source>
        <translation>加上偏置向量。</translation>
    </message>
    <message>
        <source>AddN of any number, or Add of exactly two.</source>
        <translation>AddN 可接受任意个输入，Add 只接受恰好两个。</translation>
    </message>
    <message>
        <source>Added to the denominator.</source>
        <translation>加到分母上。</translation>
    </message>
    <message>
        <source>Added to the variance.</source>
        <translation>加到方差上。</translation>
    </message>
    <message>
        <source>Applied to the output (tf.nn.&lt;name&gt;).</source>
        <translation>作用于输出（tf.nn.&lt;name&gt;）。</translation>
    </message>
    <message>
        <source>BiasAdd as tf.layers, or Add as `x + b`.</source>
        <translation>BiasAdd（同 tf.layers），或 Add（即 `x + b`）。</translation>
    </message>
    <message>
        <source>CSV text files (tf.io.decode_csv): a scalar placeholder &lt;name&gt;/&lt;column&gt; per column.</source>
        <translation>CSV 文本文件（tf.io.decode_csv）：每列一个标量占位符 &lt;name&gt;/&lt;column&gt;。</translation>
    </message>
    <message>
        <source>Comma-separated .npy files (one per component, named after the file) or one .npz.</source>
        <translation>以逗号分隔的多个 .npy 文件（每个分量一个，以文件名命名）或一个 .npz 文件。</translation>
    </message>
    <message>
        <source>Comma-separated CSV files.</source>
        <translation>以逗号分隔的多个 CSV 文件。</translation>
    </message>
    <message>
        <source>Comma-separated TFRecord files.</source>
        <translation>以逗号分隔的多个 TFRecord 文件。</translation>
    </message>
    <message>
        <source>Compression of the files.</source>
        <translation>文件的压缩格式。</translation>
    </message>
    <message>
        <source>Decay of the first moment.</source>
        <translation>一阶矩的衰减率。</translation>
    </message>
    <message>
        <source>Decay of the second moment.</source>
        <translation>二阶矩的衰减率。</translation>
    </message>
    <message>
        <source>Discount of the gradient history.</source>
        <translation>梯度历史的折扣因子。</translation>
    </message>
    <message>
        <source>Drop (true) or pass through (false).</source>
        <translation>丢弃（true）或直接通过（false）。</translation>
    </message>
    <message>
        <source>Element type.</source>
        <translation>元素类型。</translation>
    </message>
    <message>
        <source>Fixed-length features: comma-separated name:dtype[:shape] entries, the shape&apos;s sizes joined by x (28x28x1; none for a scalar), =default for a scalar.</source>
        <translation>定长特征：以逗号分隔的 name:dtype[:shape] 条目，形状的各维大小以 x 连接（如 28x28x1；标量为 none），标量可用 =default 给出默认值。</translation>
    </message>
    <message>
        <source>Floor step / decay_steps.</source>
        <translation>对 step / decay_steps 向下取整（阶梯式衰减）。</translation>
    </message>
    <message>
        <source>Folder of the idx files (empty: the project&apos;s data.dir).</source>
        <translation>idx 文件所在的文件夹（留空：使用项目的 data.dir）。</translation>
    </message>
    <message>
        <source>Fraction dropped, in [0, 1).</source>
        <translation>丢弃的比例，取值于 [0, 1)。</translation>
    </message>
    <message>
        <source>Images are resized (bilinear) to this height.</source>
        <translation>图像（双线性插值）缩放到此高度。</translation>
    </message>
    <message>
        <source>Images are resized (bilinear) to this width.</source>
        <translation>图像（双线性插值）缩放到此宽度。</translation>
    </message>
    <message>
        <source>Initializer of the bias.</source>
        <translation>偏置的初始化器。</translation>
    </message>
    <message>
        <source>Labels are class ids (sparse_softmax_cross_entropy).</source>
        <translation>标签为类别编号（sparse_softmax_cross_entropy）。</translation>
    </message>
    <message>
        <source>Learn beta.</source>
        <translation>学习 beta。</translation>
    </message>
    <message>
        <source>Learn gamma.</source>
        <translation>学习 gamma。</translation>
    </message>
    <message>
        <source>Learning rate.</source>
        <translation>学习率。</translation>
    </message>
    <message>
        <source>Leave out the first examples.</source>
        <translation>跳过开头这么多个样本。</translation>
    </message>
    <message>
        <source>MNIST examples fed by the runner from a project data source: placeholders &lt;name&gt;/images and &lt;name&gt;/labels.</source>
        <translation>由运行器从项目数据源喂入的 MNIST 样本：占位符 &lt;name&gt;/images 和 &lt;name&gt;/labels。</translation>
    </message>
    <message>
        <source>MNIST idx files fed by the runner: placeholders &lt;name&gt;/images, &lt;name&gt;/labels.</source>
        <translation>由运行器喂入的 MNIST idx 文件：占位符 &lt;name&gt;/images、&lt;name&gt;/labels。</translation>
    </message>
    <message>
        <source>Momentum.</source>
        <translation>动量。</translation>
    </message>
    <message>
        <source>NHWC or NCHW.</source>
        <translation>NHWC 或 NCHW。</translation>
    </message>
    <message>
        <source>Nesterov momentum.</source>
        <translation>Nesterov 动量。</translation>
    </message>
    <message>
        <source>Normalise with the batch&apos;s statistics and update the moving ones (UPDATE_OPS).</source>
        <translation>用当前批次的统计量归一化，并更新滑动统计量（UPDATE_OPS）。</translation>
    </message>
    <message>
        <source>NumPy .npy files or an .npz archive: a placeholder &lt;name&gt;/&lt;array&gt; per array.</source>
        <translation>NumPy .npy 文件或 .npz 归档：每个数组一个占位符 &lt;name&gt;/&lt;array&gt;。</translation>
    </message>
    <message>
        <source>Number of class folders (0: any; one_hot labels need it).</source>
        <translation>类别文件夹的数量（0：任意；one_hot 标签需要指定）。</translation>
    </message>
    <message>
        <source>Of the moving averages.</source>
        <translation>滑动平均所用的动量。</translation>
    </message>
    <message>
        <source>Output channels.</source>
        <translation>输出通道数。</translation>
    </message>
    <message>
        <source>Output size.</source>
        <translation>输出大小。</translation>
    </message>
    <message>
        <source>Output tf.losses.get_total_loss(): all losses and regularization losses so far.</source>
        <translation>输出 tf.losses.get_total_loss()：至此为止的所有损失和正则化损失。</translation>
    </message>
    <message>
        <source>Padding.</source>
        <translation>填充方式。</translation>
    </message>
    <message>
        <source>Points on each spiral.</source>
        <translation>每条螺旋线上的点数。</translation>
    </message>
    <message>
        <source>Seed of the generator.</source>
        <translation>生成器的随机种子。</translation>
    </message>
    <message>
        <source>Shape; -1 for a free dimension.</source>
        <translation>形状；-1 表示不固定的维度。</translation>
    </message>
    <message>
        <source>Skip each file&apos;s first line.</source>
        <translation>跳过每个文件的第一行。</translation>
    </message>
    <message>
        <source>Slope below zero.</source>
        <translation>零以下部分的斜率。</translation>
    </message>
    <message>
        <source>Smooth one-hot labels (not with sparse).</source>
        <translation>平滑 one-hot 标签（不能与 sparse 同用）。</translation>
    </message>
    <message>
        <source>Standard deviation of the noise on each coordinate.</source>
        <translation>每个坐标上噪声的标准差。</translation>
    </message>
    <message>
        <source>Starting value of the accumulators (positive).</source>
        <translation>累加器的初始值（正数）。</translation>
    </message>
    <message>
        <source>Strides (height, width); one int for both.</source>
        <translation>步长（height, width）；一个整数表示两者相同。</translation>
    </message>
    <message>
        <source>TFRecord files of tf.train.Example: a placeholder &lt;name&gt;/&lt;feature&gt; per feature.</source>
        <translation>由 tf.train.Example 组成的 TFRecord 文件：每个特征一个占位符 &lt;name&gt;/&lt;feature&gt;。</translation>
    </message>
    <message>
        <source>The arrays per example (first dimension left out): comma-separated name:dtype[:shape] entries, the shape&apos;s sizes joined by x (28x28x1; none for a scalar). .npy files: their stems in order; .npz: its keys.</source>
        <translation>每个样本的数组（不含第一维）：以逗号分隔的 name:dtype[:shape] 条目，形状的各维大小以 x 连接（如 28x28x1；标量为 none）。.npy 文件：按顺序为各文件名的主干；.npz：为其中的键名。</translation>
    </message>
    <message>
        <source>The axis joined along; negative counts from the end.</source>
        <translation>拼接所沿的轴；负数表示从末尾倒数。</translation>
    </message>
    <message>
        <source>The columns in order: comma-separated name:dtype[=default] entries (no default: required).</source>
        <translation>按顺序列出各列：以逗号分隔的 name:dtype[=default] 条目（无默认值：必填）。</translation>
    </message>
    <message>
        <source>The data source kind.</source>
        <translation>数据源的种类。</translation>
    </message>
    <message>
        <source>The feature axis.</source>
        <translation>特征轴。</translation>
    </message>
    <message>
        <source>The folder of class subfolders.</source>
        <translation>存放各类别子文件夹的文件夹。</translation>
    </message>
    <message>
        <source>The new shape; one -1 is inferred.</source>
        <translation>新形状；其中一个 -1 由推断得出。</translation>
    </message>
    <message>
        <source>The one-character field delimiter.</source>
        <translation>单个字符的字段分隔符。</translation>
    </message>
    <message>
        <source>Turns of each spiral.</source>
        <translation>每条螺旋线的圈数。</translation>
    </message>
    <message>
        <source>Two interleaved spirals, generated: placeholders &lt;name&gt;/points, &lt;name&gt;/labels.</source>
        <translation>生成的两条交错螺旋线：占位符 &lt;name&gt;/points、&lt;name&gt;/labels。</translation>
    </message>
    <message>
        <source>Use this many examples after skip (-1: all).</source>
        <translation>跳过之后使用这么多个样本（-1：全部）。</translation>
    </message>
    <message>
        <source>Variable name of the bias (the book: biases).</source>
        <translation>偏置的变量名（书中为 biases）。</translation>
    </message>
    <message>
        <source>Variable name of the kernel (the book: weights).</source>
        <translation>核的变量名（书中为 weights）。</translation>
    </message>
    <message>
        <source>Window (height, width); one int for both.</source>
        <translation>窗口（height, width）；一个整数表示两者相同。</translation>
    </message>
    <message>
        <source>channels_first moves channels last first.</source>
        <translation>为 channels_first 时，先将通道维移到最后。</translation>
    </message>
    <message>
        <source>exponential_decay&apos;s decay_rate.</source>
        <translation>exponential_decay 的 decay_rate。</translation>
    </message>
    <message>
        <source>exponential_decay&apos;s decay_steps.</source>
        <translation>exponential_decay 的 decay_steps。</translation>
    </message>
    <message>
        <source>float32 pixels in [0, 1] (false: uint8).</source>
        <translation>float32 像素，取值于 [0, 1]（false：uint8）。</translation>
    </message>
    <message>
        <source>global_step: tf.train.get_or_create_global_step(); Variable: tf.Variable(0, trainable=False) as the book; none: no step.</source>
        <translation>global_step：tf.train.get_or_create_global_step()；Variable：与书中相同的 tf.Variable(0, trainable=False)；none：不计步。</translation>
    </message>
    <message>
        <source>int64 class ids or float32 one-hot rows.</source>
        <translation>int64 类别编号或 float32 one-hot 行。</translation>
    </message>
    <message>
        <source>layer: tf.layers.dense; variable_scope: tf.variable_scope + tf.get_variable as the book.</source>
        <translation>layer：tf.layers.dense；variable_scope：与书中相同的 tf.variable_scope + tf.get_variable。</translation>
    </message>
    <message>
        <source>scale of tf.contrib.layers.l2_regularizer on the kernel (0: none).</source>
        <translation>作用于核的 tf.contrib.layers.l2_regularizer 的 scale（0：不使用）。</translation>
    </message>
    <message>
        <source>stddev of a (truncated_)normal bias initializer.</source>
        <translation>(truncated_)normal 偏置初始化器的 stddev。</translation>
    </message>
    <message>
        <source>stddev of a (truncated_)normal kernel initializer.</source>
        <translation>(truncated_)normal 核初始化器的 stddev。</translation>
    </message>
    <message>
        <source>tf.add_n(inputs), or tf.add(x, y).</source>
        <translation>tf.add_n(inputs) 或 tf.add(x, y)。</translation>
    </message>
    <message>
        <source>tf.concat(values, axis) of two or more tensors.</source>
        <translation>对两个或更多张量执行 tf.concat(values, axis)。</translation>
    </message>
    <message>
        <source>tf.get_variable&apos;s default glorot_uniform, or another init_ops initializer.</source>
        <translation>tf.get_variable 的默认值 glorot_uniform，或其他 init_ops 初始化器。</translation>
    </message>
    <message>
        <source>tf.layers.average_pooling2d.</source>
        <translation>tf.layers.average_pooling2d（二维平均池化）。</translation>
    </message>
    <message>
        <source>tf.layers.batch_normalization with moving statistics.</source>
        <translation>带滑动统计量的 tf.layers.batch_normalization（批归一化）。</translation>
    </message>
    <message>
        <source>tf.layers.conv2d: a 2-D convolution with bias and activation.</source>
        <translation>tf.layers.conv2d：带偏置和激活函数的二维卷积。</translation>
    </message>
    <message>
        <source>tf.layers.dense: activation(inputs . kernel + bias).</source>
        <translation>tf.layers.dense（全连接层）：activation(inputs . kernel + bias)。</translation>
    </message>
    <message>
        <source>tf.layers.dropout: inverted dropout while training.</source>
        <translation>tf.layers.dropout：训练时执行 inverted dropout（随机丢弃并放大保留值）。</translation>
    </message>
    <message>
        <source>tf.layers.flatten: [batch, ...] -&gt; [batch, n].</source>
        <translation>tf.layers.flatten（展平）：[batch, ...] -&gt; [batch, n]。</translation>
    </message>
    <message>
        <source>tf.layers.max_pooling2d.</source>
        <translation>tf.layers.max_pooling2d（二维最大池化）。</translation>
    </message>
    <message>
        <source>tf.losses.Reduction.</source>
        <translation>tf.losses.Reduction（损失的归约方式）。</translation>
    </message>
    <message>
        <source>tf.losses.mean_squared_error(labels, predictions).</source>
        <translation>tf.losses.mean_squared_error(labels, predictions)（均方误差）。</translation>
    </message>
    <message>
        <source>tf.losses.softmax_cross_entropy(onehot_labels, logits).</source>
        <translation>tf.losses.softmax_cross_entropy(onehot_labels, logits)（softmax 交叉熵）。</translation>
    </message>
    <message>
        <source>tf.losses.sparse_softmax_cross_entropy(labels, logits): int32/int64 class ids.</source>
        <translation>tf.losses.sparse_softmax_cross_entropy(labels, logits)：标签为 int32/int64 类别编号。</translation>
    </message>
    <message>
        <source>tf.nn.elu: exp(x) - 1 below zero, x above.</source>
        <translation>tf.nn.elu：零以下为 exp(x) - 1，零以上为 x。</translation>
    </message>
    <message>
        <source>tf.nn.leaky_relu: x above zero, alpha * x below.</source>
        <translation>tf.nn.leaky_relu：零以上为 x，零以下为 alpha * x。</translation>
    </message>
    <message>
        <source>tf.nn.relu6: min(max(x, 0), 6).</source>
        <translation>tf.nn.relu6（上限为 6 的线性整流）：min(max(x, 0), 6)。</translation>
    </message>
    <message>
        <source>tf.nn.relu: max(x, 0).</source>
        <translation>tf.nn.relu（线性整流）：max(x, 0)。</translation>
    </message>
    <message>
        <source>tf.nn.softmax over the last axis.</source>
        <translation>在最后一个轴上做 tf.nn.softmax。</translation>
    </message>
    <message>
        <source>tf.placeholder(dtype, shape): a tensor fed at run time.</source>
        <translation>tf.placeholder(dtype, shape)：运行时喂入的张量。</translation>
    </message>
    <message>
        <source>tf.reshape(tensor, shape).</source>
        <translation>tf.reshape(tensor, shape)（改变形状）。</translation>
    </message>
    <message>
        <source>tf.sigmoid: 1 / (1 + exp(-x)).</source>
        <translation>tf.sigmoid（S 型函数）：1 / (1 + exp(-x))。</translation>
    </message>
    <message>
        <source>tf.contrib.opt.LazyAdamOptimizer(...).minimize(loss): Adam whose embedding updates move only the rows a step looks up.</source>
        <translation>用 tf.contrib.opt.LazyAdamOptimizer(...).minimize(loss) 最小化损失：一种 Adam，嵌入表的更新只移动本步查到的行。</translation>
    </message>
    <message>
        <source>tf.tanh.</source>
        <translation>tf.tanh（双曲正切）。</translation>
    </message>
    <message>
        <source>tf.train.AdagradOptimizer(...).minimize(loss).</source>
        <translation>用 tf.train.AdagradOptimizer(...).minimize(loss) 最小化损失。</translation>
    </message>
    <message>
        <source>tf.train.AdamOptimizer(...).minimize(loss).</source>
        <translation>用 tf.train.AdamOptimizer(...).minimize(loss) 最小化损失。</translation>
    </message>
    <message>
        <source>tf.train.GradientDescentOptimizer(...).minimize(loss).</source>
        <translation>用 tf.train.GradientDescentOptimizer(...).minimize(loss) 最小化损失。</translation>
    </message>
    <message>
        <source>tf.train.MomentumOptimizer(...).minimize(loss).</source>
        <translation>用 tf.train.MomentumOptimizer(...).minimize(loss) 最小化损失。</translation>
    </message>
    <message>
        <source>tf.train.RMSPropOptimizer(...).minimize(loss).</source>
        <translation>用 tf.train.RMSPropOptimizer(...).minimize(loss) 最小化损失。</translation>
    </message>
    <message>
        <source>tf.train.exponential_decay of the learning rate.</source>
        <translation>对学习率使用 tf.train.exponential_decay（指数衰减）。</translation>
    </message>
    <message>
        <source>train (60,000 examples) or t10k (10,000).</source>
        <translation>train（60,000 个样本）或 t10k（10,000 个样本）。</translation>
    </message>
    <message>
        <source>value of a constant bias initializer.</source>
        <translation>constant 偏置初始化器的值。</translation>
    </message>
    <message>
        <source>value of a constant kernel initializer.</source>
        <translation>constant 核初始化器的值。</translation>
    </message>
    <message>
        <source>Drop while the graph&apos;s learning_phase tensor says training, pass through when evaluation, export or freeze feed it false (off: the fixed &apos;training&apos; value).</source>
        <translation>在图的 learning_phase 张量表示训练时执行丢弃，在评估、导出或冻结将其馈送为 false 时直接传递（关闭时：使用固定的“training”值）。</translation>
    </message>
    <message>
        <source>Train or infer as the graph&apos;s learning_phase tensor says: training unless evaluation, export or freeze feed it false (off: the fixed &apos;training&apos; value).</source>
        <translation>按图的 learning_phase 张量进行训练或推理：除非评估、导出或冻结将其馈送为 false，否则为训练（关闭时：使用固定的“training”值）。</translation>
    </message>
    <message>
        <source>Prefix of the tag and outer name scope (tf.summary&apos;s family); empty: none.</source>
        <translation>标签前缀和外层名称作用域（tf.summary 的 family）；为空：无。</translation>
    </message>
    <message>
        <source>Samples per second of the clips (Hz).</source>
        <translation>音频片段每秒的采样数（Hz）。</translation>
    </message>
    <message>
        <source>Summaries of the weights, biases and activations: mean, stddev, max, min and a histogram each, in the layer&apos;s name scope (the TensorFlow tutorials&apos; variable_summaries).</source>
        <translation>权重、偏置和激活值的摘要：各自的均值、标准差、最大值、最小值和直方图，位于该层的名称作用域中（即 TensorFlow 教程中的 variable_summaries）。</translation>
    </message>
    <message>
        <source>Train only the trainable variables whose names match this regular expression from the start (minimize(var_list=...)); empty: all of them.</source>
        <translation>只训练名称从开头起匹配此正则表达式的可训练变量（minimize(var_list=...)）；为空：全部训练。</translation>
    </message>
    <message>
        <source>Write at most this many elements of the batch.</source>
        <translation>最多写入批次中的这么多个元素。</translation>
    </message>
    <message>
        <source>tf.summary.audio(name, tensor, sample_rate): WAV clips of a float32 [batch, frames] or [batch, frames, channels] tensor in [-1, 1].</source>
        <translation>tf.summary.audio(name, tensor, sample_rate)：取值在 [-1, 1] 的 float32 [batch, frames] 或 [batch, frames, channels] 张量的 WAV 音频片段。</translation>
    </message>
    <message>
        <source>tf.summary.histogram(name, values): a histogram of real numbers of any shape.</source>
        <translation>tf.summary.histogram(name, values)：任意形状实数的直方图。</translation>
    </message>
    <message>
        <source>tf.summary.image(name, tensor): images of a [batch, height, width, 1|3|4] tensor as PNG (floats in [0, 1] are scaled to 0..255).</source>
        <translation>tf.summary.image(name, tensor)：将 [batch, height, width, 1|3|4] 张量的图像存为 PNG（[0, 1] 区间的浮点数缩放到 0..255）。</translation>
    </message>
    <message>
        <source>tf.summary.scalar(name, tensor): a real-number scalar written every summary step, tagged with the node&apos;s name.</source>
        <translation>tf.summary.scalar(name, tensor)：每个摘要步写入的实数标量，以节点名称作为标签。</translation>
    </message>
    <message>
        <source>tf.summary.text(name, tensor): strings shown as Markdown text.</source>
        <translation>tf.summary.text(name, tensor)：以 Markdown 文本显示的字符串。</translation>
    </message>
    <message>
        <source>tf.layers.conv2d_transpose: a transposed 2-D convolution (upsampling by the strides) with bias and activation.</source>
        <translation>tf.layers.conv2d_transpose：带偏置和激活函数的二维转置卷积（按步长上采样）。</translation>
    </message>
    <message>
        <source>tf.cond(pred, lambda: true, lambda: false): the value of &apos;true&apos; when the bool scalar pred is true, else the value of &apos;false&apos;; TensorFlow&apos;s Switch and Merge ops.</source>
        <translation>tf.cond(pred, lambda: true, lambda: false)：bool 标量 pred 为真时取 &apos;true&apos; 的值，否则取 &apos;false&apos; 的值；即 TensorFlow 的 Switch 和 Merge 操作。</translation>
    </message>
    <message>
        <source>Added to the LSTM cells&apos; forget gate.</source>
        <translation>加到 LSTM 单元的遗忘门上。</translation>
    </message>
    <message>
        <source>Cells stacked (MultiRNNCell when more than one).</source>
        <translation>堆叠的单元数（多于一个时用 MultiRNNCell）。</translation>
    </message>
    <message>
        <source>Every step&apos;s output, or the last layer&apos;s final h.</source>
        <translation>每一步的输出，或最后一层的最终 h。</translation>
    </message>
    <message>
        <source>Number of ids (rows of the table).</source>
        <translation>id 的数目（表的行数）。</translation>
    </message>
    <message>
        <source>Rows start uniform in [-init_scale, init_scale].</source>
        <translation>各行初始值在 [-init_scale, init_scale] 内均匀分布。</translation>
    </message>
    <message>
        <source>The cell: BasicLSTMCell, LSTMCell, GRUCell or BasicRNNCell.</source>
        <translation>单元类型：BasicLSTMCell、LSTMCell、GRUCell 或 BasicRNNCell。</translation>
    </message>
    <message>
        <source>Units of each cell.</source>
        <translation>每个单元的单元数。</translation>
    </message>
    <message>
        <source>Width of each row.</source>
        <translation>每行的宽度。</translation>
    </message>
    <message>
        <source>tf.nn.dynamic_rnn over a recurrent cell (stacked by MultiRNNCell for several layers): [batch, time, depth] in, every step&apos;s output or the last one out.</source>
        <translation>用循环单元做 tf.nn.dynamic_rnn（多层时由 MultiRNNCell 堆叠）：输入 [batch, time, depth]，输出每一步的结果或最后一步的结果。</translation>
    </message>
    <message>
        <source>tf.nn.embedding_lookup(embeddings, ids): one learned row of a [vocab_size, dim] table per id; its gradient updates only the rows looked up.</source>
        <translation>tf.nn.embedding_lookup(embeddings, ids)：每个 id 取 [vocab_size, dim] 表中学得的一行；其梯度只更新被查到的行。</translation>
    </message>
    <message>
        <source>Classes (rows of the output layer), e.g. the vocabulary size.</source>
        <translation>类别数（输出层的行数），例如词表大小。</translation>
    </message>
    <message>
        <source>Divide by the weights&apos; sum over the batch.</source>
        <translation>除以权重在批次上的和。</translation>
    </message>
    <message>
        <source>Divide by the weights&apos; sum over time.</source>
        <translation>除以权重在时间上的和。</translation>
    </message>
    <message>
        <source>Drop sampled classes that are an example&apos;s true class.</source>
        <translation>去掉恰为样本真实类别的采样类别。</translation>
    </message>
    <message>
        <source>Negative classes drawn per batch (log-uniform sampler).</source>
        <translation>每批抽取的负类别数（对数均匀采样器）。</translation>
    </message>
    <message>
        <source>Sum over the batch (not with its average).</source>
        <translation>在批次上求和（不可与其平均同时使用）。</translation>
    </message>
    <message>
        <source>Sum over time (not with its average).</source>
        <translation>在时间上求和（不可与其平均同时使用）。</translation>
    </message>
    <message>
        <source>True classes per example (columns of labels).</source>
        <translation>每个样本的真实类别数（labels 的列数）。</translation>
    </message>
    <message>
        <source>tf.contrib.seq2seq.sequence_loss(logits, targets, weights): the weighted cross entropy of every time step, averaged (or summed) over time and batch.</source>
        <translation>tf.contrib.seq2seq.sequence_loss(logits, targets, weights)：每个时间步的加权交叉熵，在时间和批次上取平均（或求和）。</translation>
    </message>
    <message>
        <source>tf.reduce_mean(tf.nn.nce_loss(...)): noise-contrastive estimation over an output layer of num_classes rows, word2vec&apos;s loss.</source>
        <translation>tf.reduce_mean(tf.nn.nce_loss(...))：在 num_classes 行的输出层上做噪声对比估计，即 word2vec 的损失。</translation>
    </message>
    <message>
        <source>tf.reduce_mean(tf.nn.sampled_softmax_loss(...)): softmax over the true and num_sampled sampled classes of an output layer of num_classes rows.</source>
        <translation>tf.reduce_mean(tf.nn.sampled_softmax_loss(...))：在 num_classes 行输出层的真实类别与 num_sampled 个采样类别上做 softmax。</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::AttrEditor</name>
    <message>
        <source>a function name is required</source>
        <translation>需要函数名</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a function name</source>
        <translation>“%1”不是函数名</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>This node has no attributes to edit.</source>
        <translation>此节点没有可编辑的属性。</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::EvaluateDialog</name>
    <message>
        <source>Evaluate %1</source>
        <translation>求值 %1</translation>
    </message>
    <message>
        <source>zeros, ones, random, a .npy file, or numbers separated by commas</source>
        <translation>zeros、ones、random、.npy 文件，或以逗号分隔的数字</translation>
    </message>
    <message>
        <source>This node needs no feeds.</source>
        <translation>此节点不需要输入。</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>求值</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Output %1: %2 %3</source>
        <translation>输出 %1：%2 %3</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::ImportGraphDialog</name>
    <message>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) will be added to this graph under a name scope, as tf.import_graph_def adds them. Wire any of its placeholders to a tensor of this graph instead (input_map).</source>
        <translation>
            <numerusform>将在一个名称作用域下向此图添加 %n 个节点，与 tf.import_graph_def 的做法相同。可将其任一占位符改接到此图的张量（input_map）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The name scope (tf.import_graph_def&apos;s name); made unique when taken, empty keeps the names</source>
        <translation>名称作用域（tf.import_graph_def 的 name）；已被占用时自动改为唯一名称，留空则保留原名</translation>
    </message>
    <message>
        <source>Name scope:</source>
        <translation>名称作用域：</translation>
    </message>
    <message>
        <source>Placeholder</source>
        <translation>占位符</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Wire to</source>
        <translation>连接到</translation>
    </message>
    <message>
        <source>(keep the placeholder)</source>
        <translation>（保留占位符）</translation>
    </message>
    <message>
        <source>The graph has no placeholders to wire.</source>
        <translation>该图没有可连接的占位符。</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::NodeEditor</name>
    <message>
        <source>Untitled graph</source>
        <translation>未命名计算图</translation>
    </message>
    <message>
        <source>Optimizers</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Cut</source>
        <translation>剪切</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制一份</translation>
    </message>
    <message>
        <source>Group into scope…</source>
        <translation>归入作用域…</translation>
    </message>
    <message>
        <source>Align left</source>
        <translation>左对齐</translation>
    </message>
    <message>
        <source>Align top</source>
        <translation>顶端对齐</translation>
    </message>
    <message>
        <source>Auto-arrange</source>
        <translation>自动排列</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Snap to grid</source>
        <translation>对齐网格</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Problems (%1)</source>
        <translation>问题（%1）</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>&lt;empty&gt;</source>
        <translation>&lt;空&gt;</translation>
    </message>
    <message>
        <source>Node name</source>
        <translation>节点名称</translation>
    </message>
    <message>
        <source>Select a node to edit its attributes.</source>
        <translation>选择一个节点以编辑其属性。</translation>
    </message>
    <message numerus="yes">
        <source>%n nodes selected</source>
        <translation>
            <numerusform>已选中 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown layer type</source>
        <translation>未知层类型</translation>
    </message>
    <message>
        <source>op not registered</source>
        <translation>操作未注册</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) · shapes inferred in %1 ms</source>
        <translation>
            <numerusform>%n 个节点 · 形状推断耗时 %1 毫秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Group into scope</source>
        <translation>归入作用域</translation>
    </message>
    <message>
        <source>Name scope:</source>
        <translation>名称作用域：</translation>
    </message>
    <message>
        <source>View in graph viewer</source>
        <translation>在计算图查看器中查看</translation>
    </message>
    <message>
        <source>This layer does not build yet: see its problem.</source>
        <translation>该层尚无法构建：请查看其问题。</translation>
    </message>
    <message>
        <source>%1 (%2 ops)</source>
        <translation>%1（%2 个操作）</translation>
    </message>
    <message>
        <source>Select one node to evaluate.</source>
        <translation>请选择一个节点进行求值。</translation>
    </message>
    <message>
        <source>Evaluate…</source>
        <translation>求值…</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Toggle breakpoint</source>
        <translation>切换断点</translation>
    </message>
    <message>
        <source>Select the nodes to put a breakpoint on.</source>
        <translation>请选择要设置断点的节点。</translation>
    </message>
    <message numerus="yes">
        <source>%n breakpoint(s) in this graph&apos;s project</source>
        <translation>
            <numerusform>此图的项目中有 %n 个断点</numerusform>
        </translation>
    </message>
    <message>
        <source>Show minimap</source>
        <translation>显示缩略图</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Losses</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>%1 &quot;%2&quot;</source>
        <translation>%1“%2”</translation>
    </message>
    <message>
        <source>&apos;%1&apos; now overlaps other nodes: Auto-arrange (Ctrl+L) makes room.</source>
        <translation>“%1”现在与其他节点重叠：自动排列（Ctrl+L）可腾出空间。</translation>
    </message>
    <message>
        <source>Collapse all name scopes</source>
        <translation>折叠所有名称作用域</translation>
    </message>
    <message>
        <source>Expand all name scopes</source>
        <translation>展开所有名称作用域</translation>
    </message>
    <message>
        <source>Add summaries</source>
        <translation>添加摘要</translation>
    </message>
    <message>
        <source>Summaries</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>The selected layers have summaries already (the attribute &quot;summaries&quot;).</source>
        <translation>所选的层已有摘要（属性“summaries”）。</translation>
    </message>
    <message>
        <source>Select layer nodes with weights (Dense, Conv2D, BatchNorm) to add summaries to.</source>
        <translation>请选择带权重的层节点（Dense、Conv2D、BatchNorm）以添加摘要。</translation>
    </message>
    <message numerus="yes">
        <source>Summaries added to %n layer(s): mean, stddev, max, min and a histogram of the weights, biases and activations, written while training.</source>
        <translation>
            <numerusform>已为 %n 个层添加摘要：权重、偏置和激活值的均值、标准差、最大值、最小值和直方图，在训练时写入。</numerusform>
        </translation>
    </message>
    <message>
        <source>Run on Several Processes…</source>
        <translation>在多个进程上运行…</translation>
    </message>
    <message>
        <source>An empty graph</source>
        <translation>空计算图</translation>
    </message>
    <message>
        <source>Drag an op or a layer from the palette onto the canvas, or click the canvas and press Tab (or type an op&apos;s name) to add one. Connect nodes by dragging from an output port to an input port.</source>
        <translation>将操作或层从组件面板拖到画布上，或单击画布后按 Tab（或输入操作名称）即可添加。从输出端口拖到输入端口即可连接节点。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Import graph</source>
        <translation>导入图</translation>
    </message>
    <message>
        <source>Import graph as %1</source>
        <translation>将图导入为 %1</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n node(s)</source>
        <translation>
            <numerusform>已导入 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source> under %1</source>
        <translation>，位于 %1 下</translation>
    </message>
    <message>
        <source>Import Graph</source>
        <translation>导入图</translation>
    </message>
    <message>
        <source>TensorFlow graphs (*.pb *.pbtxt *.meta *.pb.txt);;All files (*)</source>
        <translation>TensorFlow 图 (*.pb *.pbtxt *.meta *.pb.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import failed: %1</source>
        <translation>导入失败：%1</translation>
    </message>
    <message>
        <source>Import Graph…</source>
        <translation>导入图…</translation>
    </message>
    <message>
        <source>Select one Embedding layer to open its variable in the Projector.</source>
        <translation>请选择一个 Embedding 层以在投影器中打开其变量。</translation>
    </message>
    <message>
        <source>Open Embedding in Projector</source>
        <translation>在投影器中打开嵌入</translation>
    </message>
    <message>
        <source>Open in Projector</source>
        <translation>在投影器中打开</translation>
    </message>
    <message>
        <source>Show this embedding&apos;s variable from the project&apos;s latest checkpoint in the dashboard&apos;s Projector tab</source>
        <translation>在仪表板的投影器标签页中显示项目最新检查点里此嵌入的变量</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::NodeEditorMinimap</name>
    <message>
        <source>Overview: click or drag to move the view</source>
        <translation>概览：单击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::NodeEditorScene</name>
    <message>
        <source>Collapse &apos;%1&apos;</source>
        <translation>折叠“%1”</translation>
    </message>
    <message>
        <source>Expand &apos;%1&apos;</source>
        <translation>展开“%1”</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::NodeItem</name>
    <message>
        <source>%1 %2</source>
        <comment>port dtype and shape</comment>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>port name and what flows through it</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>dtype and shape not known yet</source>
        <translation>dtype 和形状尚未知</translation>
    </message>
    <message>
        <source>Gives %1</source>
        <translation>输出 %1</translation>
    </message>
    <message>
        <source>Expects %1</source>
        <translation>需要 %1</translation>
    </message>
    <message>
        <source>Takes a reference to a variable (a _ref dtype)</source>
        <translation>接收变量的引用（_ref dtype）</translation>
    </message>
    <message>
        <source>Breakpoint: %1</source>
        <translation>断点：%1</translation>
    </message>
    <message>
        <source>(disabled)</source>
        <translation>（已禁用）</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::NodePalette</name>
    <message>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Search ops and layers</source>
        <translation>搜索操作和层</translation>
    </message>
    <message>
        <source>Type to filter by name or documentation; Enter places the first match</source>
        <translation>输入以按名称或文档筛选；按 Enter 放置第一个匹配项</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::QuickAddPopup</name>
    <message>
        <source>Add a node…</source>
        <translation>添加节点…</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::ScopeFrameItem</name>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>Double-click or click the arrow to show its nodes; drag to move them.</source>
        <translation>双击或点击箭头显示其节点；拖动可移动这些节点。</translation>
    </message>
    <message>
        <source>Double-click the header or click the arrow to collapse; drag the header to move its nodes.</source>
        <translation>双击标题栏或点击箭头可折叠；拖动标题栏可移动其节点。</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::SessionConsole</name>
    <message>
        <source>No graph is open in the editor: open or create one (File ▸ New Graph) first.</source>
        <translation>编辑器中没有打开的图：请先打开或新建一个（文件 ▸ 新建图）。</translation>
    </message>
    <message numerus="yes">
        <source>Session started with %n node(s); variables initialised.</source>
        <translation>
            <numerusform>会话已启动，共 %n 个节点；变量已初始化。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Session extended by %n node(s).</source>
        <translation>
            <numerusform>会话已扩展 %n 个节点。</numerusform>
        </translation>
    </message>
    <message>
        <source>New variables initialised: %1</source>
        <translation>已初始化新变量：%1</translation>
    </message>
    <message>
        <source>Ran %1.</source>
        <translation>已运行 %1。</translation>
    </message>
    <message numerus="yes">
        <source>Session re-initialised with %n node(s); variables start from their initial values.</source>
        <translation>
            <numerusform>会话已重新初始化，共 %n 个节点；变量从初始值开始。</numerusform>
        </translation>
    </message>
    <message>
        <source>Session closed; the next line opens a new one.</source>
        <translation>会话已关闭；下一行将打开新会话。</translation>
    </message>
    <message>
        <source>No graph in the editor.</source>
        <translation>编辑器中没有图。</translation>
    </message>
    <message>
        <source>Out of date: the graph changed where the session cannot follow. Re-initialise.</source>
        <translation>已过期：图的改动超出会话所能跟随的范围。请重新初始化。</translation>
    </message>
    <message>
        <source>No session yet: the first line starts one.</source>
        <translation>尚无会话：输入第一行即启动会话。</translation>
    </message>
    <message numerus="yes">
        <source>Session open: %n node(s), </source>
        <translation>
            <numerusform>会话已打开：%n 个节点，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s).</source>
        <translation>
            <numerusform>%n 次运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>A tensor or operation, e.g. loss, or logits with x=random; Enter runs it</source>
        <translation>张量或操作，例如 loss，或 logits with x=random；按 Enter 运行</translation>
    </message>
    <message>
        <source>Re-initialise</source>
        <translation>重新初始化</translation>
    </message>
    <message>
        <source>Start a new session: every variable from its initial value</source>
        <translation>启动新会话：所有变量从初始值开始</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Close the session (tf.Session.close); the next line opens a new one</source>
        <translation>关闭会话（tf.Session.close）；下一行将打开新会话</translation>
    </message>
    <message>
        <source>Running under the debugger: paused before the first node. Step, continue or stop it in the Debugger tab.</source>
        <translation>正在调试器下运行：已在第一个节点之前暂停。请在调试器标签页中单步、继续或停止它。</translation>
    </message>
    <message>
        <source>Stopped in the debugger; the nodes that ran kept their effects.</source>
        <translation>已在调试器中停止；已运行的节点保留其效果。</translation>
    </message>
    <message>
        <source>The debugged run finished.</source>
        <translation>调试的运行已完成。</translation>
    </message>
    <message>
        <source>A run is under the debugger: continue or stop it in the Debugger tab.</source>
        <translation>有一次运行处于调试器下：请在调试器标签页中继续或停止它。</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>调试</translation>
    </message>
    <message>
        <source>Run the line under the debugger (as tfdbg wraps a session): step through its nodes in the Debugger tab; also typed as &quot;debug LINE&quot;</source>
        <translation>在调试器下运行该行（如 tfdbg 包装会话）：在调试器标签页中逐个节点执行；也可输入 &quot;debug 行&quot;</translation>
    </message>
    <message>
        <source>An interactive session over the graph in the editor, as tf.InteractiveSession: type a tensor to see its value, an operation (an initializer, an assign, a train step) to run it; feed placeholders with &apos;with x=1,2,3; y[2,2]=random&apos;. Variables keep their values between lines. &apos;debug LINE&apos; (or Debug) steps a line&apos;s run in the Debugger tab.</source>
        <translation>编辑器中图的交互式会话，如同 tf.InteractiveSession：输入张量查看其值，输入操作（初始化器、赋值、训练步）运行它；用 &apos;with x=1,2,3; y[2,2]=random&apos; 为占位符馈送数据。变量的值在各行之间保持。&apos;debug 行&apos;（或“调试”按钮）在调试器标签页中逐步查看一行的运行。</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::SourcePreviewView</name>
    <message>
        <source>Component</source>
        <translation>分量</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape per example</source>
        <translation>每个样本的形状</translation>
    </message>
    <message>
        <source>First values</source>
        <translation>前几个值</translation>
    </message>
    <message>
        <source>Data preview</source>
        <translation>数据预览</translation>
    </message>
    <message>
        <source>Data preview: %1</source>
        <translation>数据预览：%1</translation>
    </message>
    <message>
        <source>Reading the first %1 examples…</source>
        <translation>正在读取前 %1 个样本…</translation>
    </message>
    <message numerus="yes">
        <source>The first %n example(s), in the source&apos;s order (training shuffles them).</source>
        <translation>
            <numerusform>前 %n 个样本，按数据源的原始顺序（训练时会打乱）。</numerusform>
        </translation>
    </message>
    <message>
        <source>(images, below)</source>
        <translation>（图像，见下方）</translation>
    </message>
</context>
<context>
    <name>tstudio::node_editor::TensorEditDialog</name>
    <message>
        <source>a constant needs a fully defined shape, not %1</source>
        <translation>常量需要完全确定的形状，而不是 %1</translation>
    </message>
    <message>
        <source>shape %1 has %2 elements; at most %3 can be edited here</source>
        <translation>形状 %1 有 %2 个元素；此处最多可编辑 %3 个</translation>
    </message>
    <message>
        <source>the table does not match the shape</source>
        <translation>表格与形状不符</translation>
    </message>
    <message>
        <source>%1 values for %2 elements: fill every cell, or only the first to repeat it</source>
        <translation>%2 个元素只有 %1 个值：请填满所有单元格，或只填第一个以重复该值</translation>
    </message>
    <message>
        <source>value %1 &apos;%2&apos; is not a %3</source>
        <translation>第 %1 个值“%2”不是 %3</translation>
    </message>
    <message>
        <source>Tensors of dtype %1 cannot be edited here.</source>
        <translation>此处无法编辑数据类型为 %1 的张量。</translation>
    </message>
    <message>
        <source>This tensor has %1 elements; at most %2 can be edited here.</source>
        <translation>该张量有 %1 个元素；此处最多可编辑 %2 个。</translation>
    </message>
    <message numerus="yes">
        <source>%1, %n element(s)</source>
        <translation>
            <numerusform>%1，%n 个元素</numerusform>
        </translation>
    </message>
    <message>
        <source>Edit tensor</source>
        <translation>编辑张量</translation>
    </message>
    <message>
        <source>Data type:</source>
        <translation>数据类型：</translation>
    </message>
    <message>
        <source>Shape:</source>
        <translation>形状：</translation>
    </message>
    <message>
        <source>A fully defined shape such as [2, 3]; [] for a scalar</source>
        <translation>完全确定的形状，如 [2, 3]；标量为 []</translation>
    </message>
    <message>
        <source>Row-major values; fill only the first cell to repeat one value</source>
        <translation>按行优先填写数值；只填第一个单元格则重复该值</translation>
    </message>
</context>
<context>
    <name>tstudio::ops</name>
    <message>
        <source>2-D convolution of a 4-D input with a [height, width, in, out] filter.</source>
        <translation>用形状为 [height, width, in, out] 的卷积核对四维输入做二维卷积。</translation>
    </message>
    <message>
        <source>A Summary holding a tensor, a tag and plugin metadata.</source>
        <translation>包含一个张量、一个标签（tag）和插件元数据的 Summary。</translation>
    </message>
    <message>
        <source>A Summary holding a tensor, with the node name instead of a tag.</source>
        <translation>包含一个张量的 Summary，以节点名代替标签（tag）。</translation>
    </message>
    <message>
        <source>A Summary with WAV clips; the sample rate is an attr.</source>
        <translation>包含 WAV 音频片段的 Summary；采样率是一个属性（attr）。</translation>
    </message>
    <message>
        <source>A Summary with a histogram of the values (non-finite values fail).</source>
        <translation>包含数值直方图的 Summary（遇到非有限值时失败）。</translation>
    </message>
    <message>
        <source>A Summary with one simple_value per tag.</source>
        <translation>每个标签一个 simple_value 的 Summary。</translation>
    </message>
    <message>
        <source>A Summary with up to max_images PNG images of a [batch, h, w, c] tensor.</source>
        <translation>包含最多 max_images 张 PNG 图像的 Summary，图像取自 [batch, h, w, c] 张量。</translation>
    </message>
    <message>
        <source>A Summary with up to max_outputs 16-bit WAV clips.</source>
        <translation>包含最多 max_outputs 个 16 位 WAV 音频片段的 Summary。</translation>
    </message>
    <message>
        <source>A handle to a resource variable of the given dtype and shape.</source>
        <translation>指向给定 dtype 和形状的资源变量的句柄。</translation>
    </message>
    <message>
        <source>A mutable tensor of the given shape and dtype that keeps its value across steps.</source>
        <translation>给定形状和 dtype 的可变张量，其值在各步之间保留。</translation>
    </message>
    <message>
        <source>A mutable tensor that lives for one step only.</source>
        <translation>只存在于一步之内的可变张量。</translation>
    </message>
    <message>
        <source>A random permutation of value along its first dimension.</source>
        <translation>沿第一维对 value 随机重排。</translation>
    </message>
    <message>
        <source>A serialized SummaryMetadata proto (which plugin reads it).</source>
        <translation>序列化的 SummaryMetadata proto（说明由哪个插件读取）。</translation>
    </message>
    <message>
        <source>A stack that produces elements in first-in last-out order; max_size below 0 means unlimited.</source>
        <translation>按先进后出顺序产生元素的栈；max_size 小于 0 表示不限大小。</translation>
    </message>
    <message>
        <source>A tensor of rank 2k with `diagonal` (rank k &gt;= 1) on its diagonal (output[i1..ik, i1..ik] = diagonal[i1..ik]) and zeros elsewhere.</source>
        <translation>秩为 2k 的张量，对角线上为 `diagonal`（秩 k &gt;= 1）（output[i1..ik, i1..ik] = diagonal[i1..ik]），其余位置为零。</translation>
    </message>
    <message>
        <source>Adadelta update with running averages of squared gradients and squared updates.</source>
        <translation>Adadelta 更新，使用梯度平方和更新量平方的滑动平均。</translation>
    </message>
    <message>
        <source>Adagrad update: accum += grad^2; var -= lr * grad / sqrt(accum).</source>
        <translation>Adagrad 更新：accum += grad^2; var -= lr * grad / sqrt(accum)。</translation>
    </message>
    <message>
        <source>Adam update of var with first and second moments m and v, bias-corrected by beta1_power and beta2_power.</source>
        <translation>用一阶矩 m 和二阶矩 v 对 var 做 Adam 更新，并以 beta1_power 和 beta2_power 做偏差校正。</translation>
    </message>
    <message>
        <source>Adds a 1-D bias to the channel dimension of value (last, or dim 1 for NCHW).</source>
        <translation>将一维偏置加到 value 的通道维上（最后一维，NCHW 时为第 1 维）。</translation>
    </message>
    <message>
        <source>Adds a 1-D bias to the last dimension of value (the original BiasAdd).</source>
        <translation>将一维偏置加到 value 的最后一维上（最初的 BiasAdd）。</translation>
    </message>
    <message>
        <source>Adds a value to a resource variable in place.</source>
        <translation>将一个值就地加到资源变量上。</translation>
    </message>
    <message>
        <source>Adds up the elements along the given axes.</source>
        <translation>沿给定的轴对元素求和。</translation>
    </message>
    <message>
        <source>Adds value to the ref variable in place and outputs the ref.</source>
        <translation>将 value 就地加到引用变量上，并输出该引用。</translation>
    </message>
    <message>
        <source>Adds x and y element-wise with broadcasting (numbers only).</source>
        <translation>逐元素将 x 与 y 相加，支持广播（仅限数值）。</translation>
    </message>
    <message>
        <source>Adds x and y element-wise with broadcasting; strings are concatenated.</source>
        <translation>逐元素将 x 与 y 相加，支持广播；字符串则拼接。</translation>
    </message>
    <message>
        <source>Applies the logistic function 1 / (1 + e^-x).</source>
        <translation>应用 logistic 函数 1 / (1 + e^-x)。</translation>
    </message>
    <message>
        <source>Average over sliding windows of a 4-D input (padding is not counted).</source>
        <translation>对四维输入的滑动窗口求平均（填充部分不计入）。</translation>
    </message>
    <message>
        <source>Averages the elements along the given axes.</source>
        <translation>沿给定的轴对元素求平均。</translation>
    </message>
    <message>
        <source>Backpropagates through Reciprocal: -dy * y * y for y = 1 / x.</source>
        <translation>Reciprocal 的反向传播：对 y = 1 / x 为 -dy * y * y。</translation>
    </message>
    <message>
        <source>Backpropagates through Rsqrt: -0.5 * dy * y^3 for y = rsqrt(x).</source>
        <translation>Rsqrt 的反向传播：对 y = rsqrt(x) 为 -0.5 * dy * y^3。</translation>
    </message>
    <message>
        <source>Backpropagates through Sigmoid: dy * y * (1 - y) for y = sigmoid(x).</source>
        <translation>Sigmoid 的反向传播：对 y = sigmoid(x) 为 dy * y * (1 - y)。</translation>
    </message>
    <message>
        <source>Backpropagates through Sqrt: 0.5 * dy / y for y = sqrt(x).</source>
        <translation>Sqrt 的反向传播：对 y = sqrt(x) 为 0.5 * dy / y。</translation>
    </message>
    <message>
        <source>Backpropagates through Tanh: dy * (1 - y * y) for y = tanh(x).</source>
        <translation>Tanh 的反向传播：对 y = tanh(x) 为 dy * (1 - y * y)。</translation>
    </message>
    <message>
        <source>Backward step of BiasAdd: out_backprop summed over all but the channel dimension.</source>
        <translation>BiasAdd 的反向计算：对 out_backprop 在通道维以外的所有维上求和。</translation>
    </message>
    <message>
        <source>Backward step of Elu, computed from the forward outputs.</source>
        <translation>Elu 的反向计算，由前向输出求得。</translation>
    </message>
    <message>
        <source>Backward step of FusedBatchNorm.</source>
        <translation>FusedBatchNorm 的反向计算。</translation>
    </message>
    <message>
        <source>Backward step of FusedBatchNormV2.</source>
        <translation>FusedBatchNormV2 的反向计算。</translation>
    </message>
    <message>
        <source>Backward step of FusedBatchNormV3.</source>
        <translation>FusedBatchNormV3 的反向计算。</translation>
    </message>
    <message>
        <source>Backward step of LRN.</source>
        <translation>LRN 的反向计算。</translation>
    </message>
    <message>
        <source>Backward step of LeakyRelu: gradients scaled by 1 or alpha.</source>
        <translation>LeakyRelu 的反向计算：梯度乘以 1 或 alpha。</translation>
    </message>
    <message>
        <source>Backward step of Relu6: gradients where 0 &lt; features &lt; 6, else 0.</source>
        <translation>Relu6 的反向计算：在 0 &lt; features &lt; 6 处为 gradients，其余为 0。</translation>
    </message>
    <message>
        <source>Backward step of Relu: gradients where the forward input was positive, else 0.</source>
        <translation>Relu 的反向计算：前向输入为正处为 gradients，其余为 0。</translation>
    </message>
    <message>
        <source>Backward step of Selu, computed from the forward outputs.</source>
        <translation>Selu 的反向计算，由前向输出求得。</translation>
    </message>
    <message>
        <source>Backward step of Softplus: gradients * sigmoid(features).</source>
        <translation>Softplus 的反向计算：gradients * sigmoid(features)。</translation>
    </message>
    <message>
        <source>Backward step of Softsign: gradients / (1 + abs(features))^2.</source>
        <translation>Softsign 的反向计算：gradients / (1 + abs(features))^2。</translation>
    </message>
    <message>
        <source>Batch normalization of a 4-D tensor in one op (float only).</source>
        <translation>用一个操作完成四维张量的批归一化（仅限 float）。</translation>
    </message>
    <message>
        <source>Batch normalization of a 4-D tensor whose statistics may have another type (U).</source>
        <translation>四维张量的批归一化，统计量可以是另一种类型（U）。</translation>
    </message>
    <message>
        <source>Batch normalization of a 4-D tensor, with an extra reserve output for the backward step.</source>
        <translation>四维张量的批归一化，另有一个供反向计算使用的预留输出。</translation>
    </message>
    <message>
        <source>Batched diagonal matrices: output [..., N, N] with `diagonal` [..., N] on the diagonal of each innermost matrix and zeros elsewhere.</source>
        <translation>批量对角矩阵：输出 [..., N, N]，每个最内层矩阵的对角线上为 `diagonal` [..., N]，其余位置为零。</translation>
    </message>
    <message>
        <source>Boolean AND of x and y element-wise, with broadcasting.</source>
        <translation>逐元素对 x 和 y 做布尔与，支持广播。</translation>
    </message>
    <message>
        <source>Boolean NOT of every element.</source>
        <translation>对每个元素做布尔非。</translation>
    </message>
    <message>
        <source>Boolean OR of x and y element-wise, with broadcasting.</source>
        <translation>逐元素对 x 和 y 做布尔或，支持广播。</translation>
    </message>
    <message>
        <source>Broadcasts a tensor to a given shape.</source>
        <translation>将张量广播到给定形状。</translation>
    </message>
    <message>
        <source>Centered RMSProp update: mg and ms track the mean and mean square of grad, which normalise the step by their variance.</source>
        <translation>中心化 RMSProp 更新：mg 和 ms 跟踪 grad 的均值和均方，用由此得到的方差对步长做归一化。</translation>
    </message>
    <message>
        <source>Channels 1 (grey), 3 (RGB) or 4 (RGBA). Float images are scaled one at a time into [0, 255]: by 255/max when no value is negative, otherwise around 128 by 127/max|x|; pixels with a non-finite value take bad_color.</source>
        <translation>通道数为 1（灰度）、3（RGB）或 4（RGBA）。浮点图像逐张缩放到 [0, 255]：没有负值时乘以 255/max，否则以 128 为中心乘以 127/max|x|；值为非有限数的像素取 bad_color。</translation>
    </message>
    <message>
        <source>Computes (x - y) * conj(x - y) element-wise with broadcasting.</source>
        <translation>逐元素计算 (x - y) * conj(x - y)，支持广播。</translation>
    </message>
    <message>
        <source>Computes running products along one axis.</source>
        <translation>沿一个轴计算累积乘积。</translation>
    </message>
    <message>
        <source>Computes running sums along one axis.</source>
        <translation>沿一个轴计算累积和。</translation>
    </message>
    <message>
        <source>Computes the broadcast of two shapes.</source>
        <translation>计算两个形状广播后的形状。</translation>
    </message>
    <message>
        <source>Computes the inverse of a permutation vector.</source>
        <translation>计算置换向量的逆置换。</translation>
    </message>
    <message>
        <source>Computes where each input of a concatenation starts in the output.</source>
        <translation>计算拼接的每个输入在输出中的起始位置。</translation>
    </message>
    <message>
        <source>Converts every element from type SrcT to type DstT.</source>
        <translation>将每个元素从类型 SrcT 转换为类型 DstT。</translation>
    </message>
    <message>
        <source>Creates a tensor of shape `dims` filled with one scalar value.</source>
        <translation>创建形状为 `dims`、以一个标量值填充的张量。</translation>
    </message>
    <message>
        <source>Cuts a tensor into equal pieces along one dimension.</source>
        <translation>沿一个维度将张量切成大小相等的若干份。</translation>
    </message>
    <message>
        <source>Cuts a tensor into pieces of given sizes along one dimension.</source>
        <translation>沿一个维度将张量切成给定大小的若干份。</translation>
    </message>
    <message>
        <source>Deletes the resource behind a handle.</source>
        <translation>删除句柄所指的资源。</translation>
    </message>
    <message>
        <source>Deletes the stack and the elements it still holds.</source>
        <translation>删除栈及其中剩余的元素。</translation>
    </message>
    <message>
        <source>Depthwise 2-D convolution: each input channel convolved with its own channel_multiplier filters.</source>
        <translation>逐通道（depthwise）二维卷积：每个输入通道与其自己的 channel_multiplier 个卷积核做卷积。</translation>
    </message>
    <message>
        <source>Divides x by y element-wise with broadcasting, as floating-point division.</source>
        <translation>逐元素用 x 除以 y，支持广播，按浮点除法计算。</translation>
    </message>
    <message>
        <source>Divides x by y element-wise with broadcasting, giving 0 wherever y is 0.</source>
        <translation>逐元素用 x 除以 y，支持广播，y 为 0 处结果为 0。</translation>
    </message>
    <message>
        <source>Divides x by y element-wise with broadcasting, rounding the quotient down.</source>
        <translation>逐元素用 x 除以 y，支持广播，商向下取整。</translation>
    </message>
    <message>
        <source>Divides x by y element-wise with broadcasting; integer division rounds toward zero.</source>
        <translation>逐元素用 x 除以 y，支持广播；整数除法向零取整。</translation>
    </message>
    <message>
        <source>Does nothing; a node to hang control dependencies on.</source>
        <translation>什么也不做；用于挂接控制依赖的节点。</translation>
    </message>
    <message>
        <source>Does nothing; a scheduling point for control edges.</source>
        <translation>什么也不做；控制边的调度点。</translation>
    </message>
    <message>
        <source>Each innermost [M, N] matrix of `input` with every entry outside a central band set to zero: entry (m, n) is kept when (num_lower &lt; 0 or m - n &lt;= num_lower) and (num_upper &lt; 0 or n - m &lt;= num_upper). (-1, 0) keeps the lower triangle, (0, -1) the upper one.</source>
        <translation>将 `input` 每个最内层 [M, N] 矩阵中位于中心带之外的元素置零：当 (num_lower &lt; 0 or m - n &lt;= num_lower) and (num_upper &lt; 0 or n - m &lt;= num_upper) 时保留元素 (m, n)。(-1, 0) 保留下三角，(0, -1) 保留上三角。</translation>
    </message>
    <message>
        <source>Expands indices into one-hot vectors of length `depth`.</source>
        <translation>将索引展开为长度为 `depth` 的 one-hot 向量。</translation>
    </message>
    <message>
        <source>Exponential linear unit: exp(features) - 1 below zero, features above.</source>
        <translation>指数线性单元：零以下为 exp(features) - 1，零以上为 features。</translation>
    </message>
    <message>
        <source>Extracts a block of `size` elements starting at `begin`.</source>
        <translation>从 `begin` 开始截取大小为 `size` 的块。</translation>
    </message>
    <message>
        <source>Extracts a strided slice, as Python&apos;s `x[b:e:s, ...]` indexing.</source>
        <translation>按步长截取切片，同 Python 的 `x[b:e:s, ...]` 索引。</translation>
    </message>
    <message>
        <source>FTRL-proximal update with L1 and L2 regularization.</source>
        <translation>带 L1 和 L2 正则化的 FTRL-proximal 更新。</translation>
    </message>
    <message>
        <source>Fails the step with the summarized data when the scalar condition is false.</source>
        <translation>标量条件为假时使该步失败，错误信息中给出 data 的摘要。</translation>
    </message>
    <message>
        <source>Finds the axes to sum a broadcast op&apos;s gradients over.</source>
        <translation>求出对广播操作的梯度求和时所沿的轴。</translation>
    </message>
    <message>
        <source>Finds the distinct elements of a vector and where each element went.</source>
        <translation>求出向量中互不相同的元素，以及每个元素在其中的位置。</translation>
    </message>
    <message>
        <source>Finds the elements of x that are not in y (tf.setdiff1d), in x&apos;s order, and their positions in x.</source>
        <translation>按 x 中的顺序求出 x 中不在 y 中的元素（tf.setdiff1d）及其在 x 中的位置。</translation>
    </message>
    <message>
        <source>Floating-point samples drawn uniformly from [0, 1), of the given shape.</source>
        <translation>从 [0, 1) 均匀抽取的浮点样本，形状为给定形状。</translation>
    </message>
    <message>
        <source>Forwards data to output_true or output_false as pred says.</source>
        <translation>根据 pred 将 data 转发到 output_true 或 output_false。</translation>
    </message>
    <message>
        <source>Forwards the ref data to output_true or output_false as pred says.</source>
        <translation>根据 pred 将引用 data 转发到 output_true 或 output_false。</translation>
    </message>
    <message>
        <source>Forwards the ref input chosen by index.</source>
        <translation>转发由 index 选中的引用输入。</translation>
    </message>
    <message>
        <source>Forwards whichever input becomes available, and its index.</source>
        <translation>转发最先可用的那个输入及其索引。</translation>
    </message>
    <message>
        <source>Frees a TemporaryVariable and outputs its final value.</source>
        <translation>释放一个 TemporaryVariable 并输出其最终值。</translation>
    </message>
    <message>
        <source>Gathers slices along dimension `axis` at the given indices.</source>
        <translation>沿维度 `axis` 按给定索引收集切片。</translation>
    </message>
    <message>
        <source>Gathers slices along the first dimension at the given indices.</source>
        <translation>沿第一维按给定索引收集切片。</translation>
    </message>
    <message>
        <source>Gives -1, 0 or 1 for each element according to its sign.</source>
        <translation>按每个元素的符号给出 -1、0 或 1。</translation>
    </message>
    <message>
        <source>Gives a tensor a new shape with the same number of elements.</source>
        <translation>给张量一个元素个数相同的新形状。</translation>
    </message>
    <message>
        <source>Gives the index of the largest element along an axis.</source>
        <translation>给出沿某个轴最大元素的索引。</translation>
    </message>
    <message>
        <source>Gives the index of the smallest element along an axis.</source>
        <translation>给出沿某个轴最小元素的索引。</translation>
    </message>
    <message>
        <source>Gradient of AvgPool: grad spread evenly over each window.</source>
        <translation>AvgPool 的梯度：grad 平均分配到每个窗口。</translation>
    </message>
    <message>
        <source>Gradient of Conv2D with respect to its filter, of shape filter_sizes.</source>
        <translation>Conv2D 对其卷积核的梯度，形状为 filter_sizes。</translation>
    </message>
    <message>
        <source>Gradient of Conv2D with respect to its input, of shape input_sizes.</source>
        <translation>Conv2D 对其输入的梯度，形状为 input_sizes。</translation>
    </message>
    <message>
        <source>Gradient of DepthwiseConv2dNative with respect to its filter.</source>
        <translation>DepthwiseConv2dNative 对其卷积核的梯度。</translation>
    </message>
    <message>
        <source>Gradient of DepthwiseConv2dNative with respect to its input.</source>
        <translation>DepthwiseConv2dNative 对其输入的梯度。</translation>
    </message>
    <message>
        <source>Gradient of MaxPool: grad routed to the maximum of each window.</source>
        <translation>MaxPool 的梯度：grad 传给每个窗口中的最大值。</translation>
    </message>
    <message>
        <source>Half the sum of squares of all elements: sum(t ^ 2) / 2.</source>
        <translation>所有元素平方和的一半：sum(t ^ 2) / 2。</translation>
    </message>
    <message>
        <source>InTopK with k given as an input tensor instead of an attr.</source>
        <translation>k 由输入张量而非属性（attr）给出的 InTopK。</translation>
    </message>
    <message>
        <source>Inserts a dimension of size 1 at index `dim`.</source>
        <translation>在索引 `dim` 处插入一个大小为 1 的维度。</translation>
    </message>
    <message>
        <source>Integer samples drawn uniformly from [minval, maxval), of the given shape.</source>
        <translation>从 [minval, maxval) 均匀抽取的整数样本，形状为给定形状。</translation>
    </message>
    <message>
        <source>Interleaves values from N tensors by index, in no fixed order.</source>
        <translation>按索引交错合并 N 个张量的值，顺序不固定。</translation>
    </message>
    <message>
        <source>Interleaves values from N tensors into one tensor by index.</source>
        <translation>按索引将 N 个张量的值交错合并为一个张量。</translation>
    </message>
    <message>
        <source>Joins tensors along one dimension (the axis comes first).</source>
        <translation>沿一个维度拼接张量（轴参数在前）。</translation>
    </message>
    <message>
        <source>Joins tensors along one dimension.</source>
        <translation>沿一个维度拼接张量。</translation>
    </message>
    <message>
        <source>Joins the strings of N tensors element-wise with a separator; scalars are broadcast to the shape of the others.</source>
        <translation>用分隔符逐元素连接 N 个张量中的字符串；标量广播到其他张量的形状。</translation>
    </message>
    <message>
        <source>Leaky rectified linear unit: features where positive, alpha * features elsewhere.</source>
        <translation>带泄漏的线性整流单元：正值处为 features，其余为 alpha * features。</translation>
    </message>
    <message>
        <source>Legacy form of VariableV2: a mutable tensor kept across steps.</source>
        <translation>VariableV2 的旧形式：在各步之间保留的可变张量。</translation>
    </message>
    <message>
        <source>Local response normalization across the depth of a 4-D tensor.</source>
        <translation>沿四维张量的深度方向做局部响应归一化。</translation>
    </message>
    <message>
        <source>Logarithm of the softmax over the last dimension, computed stably.</source>
        <translation>最后一维上 softmax 的对数，以数值稳定的方式计算。</translation>
    </message>
    <message>
        <source>Makes data available inside the child frame frame_name.</source>
        <translation>使 data 在子帧 frame_name 内可用。</translation>
    </message>
    <message>
        <source>Makes data available to the next iteration of the loop.</source>
        <translation>使 data 在循环的下一次迭代中可用。</translation>
    </message>
    <message>
        <source>Makes data available to the parent frame.</source>
        <translation>使 data 在父帧中可用。</translation>
    </message>
    <message>
        <source>Makes the 1-D sequence start, start + delta, ... stopping before limit.</source>
        <translation>生成一维序列 start, start + delta, ...，在到达 limit 之前停止。</translation>
    </message>
    <message>
        <source>Maximum over sliding windows of a 4-D input.</source>
        <translation>对四维输入的滑动窗口取最大值。</translation>
    </message>
    <message>
        <source>Merges V2 checkpoints (one per device) into one checkpoint with several data shards.</source>
        <translation>将 V2 检查点（每个设备一个）合并为一个含多个数据分片的检查点。</translation>
    </message>
    <message>
        <source>Momentum update: accum = accum * momentum + grad; var -= lr * accum (or the Nesterov form).</source>
        <translation>Momentum 更新：accum = accum * momentum + grad; var -= lr * accum（或 Nesterov 形式）。</translation>
    </message>
    <message>
        <source>Multiplies every element by itself.</source>
        <translation>将每个元素与自身相乘。</translation>
    </message>
    <message>
        <source>Multiplies matrix a by matrix b, either optionally transposed.</source>
        <translation>矩阵 a 乘以矩阵 b，二者均可选择先转置。</translation>
    </message>
    <message>
        <source>Multiplies the elements along the given axes.</source>
        <translation>沿给定的轴对元素求积。</translation>
    </message>
    <message>
        <source>Multiplies the matrices of two batches whose batch dimensions are equal.</source>
        <translation>将两批矩阵逐个相乘，两者的批维度必须相等。</translation>
    </message>
    <message>
        <source>Multiplies the matrices of two batches, broadcasting the batch dimensions.</source>
        <translation>将两批矩阵逐个相乘，批维度可广播。</translation>
    </message>
    <message>
        <source>Multiplies x and y element-wise with broadcasting.</source>
        <translation>逐元素将 x 与 y 相乘，支持广播。</translation>
    </message>
    <message>
        <source>Negates every element.</source>
        <translation>对每个元素取负。</translation>
    </message>
    <message>
        <source>On a resource variable: Adadelta update with running averages of squared gradients and squared updates.</source>
        <translation>作用于资源变量：Adadelta 更新，使用梯度平方和更新量平方的滑动平均。</translation>
    </message>
    <message>
        <source>On a resource variable: Adagrad update: accum += grad^2; var -= lr * grad / sqrt(accum).</source>
        <translation>作用于资源变量：Adagrad 更新：accum += grad^2; var -= lr * grad / sqrt(accum)。</translation>
    </message>
    <message>
        <source>On a resource variable: Adam update of var with first and second moments m and v, bias-corrected by beta1_power and beta2_power.</source>
        <translation>作用于资源变量：用一阶矩 m 和二阶矩 v 对 var 做 Adam 更新，并以 beta1_power 和 beta2_power 做偏差校正。</translation>
    </message>
    <message>
        <source>On a resource variable: Centered RMSProp update: mg and ms track the mean and mean square of grad, which normalise the step by their variance.</source>
        <translation>作用于资源变量：中心化 RMSProp 更新：mg 和 ms 跟踪 grad 的均值和均方，用由此得到的方差对步长做归一化。</translation>
    </message>
    <message>
        <source>On a resource variable: FTRL-proximal update with L1 and L2 regularization.</source>
        <translation>作用于资源变量：带 L1 和 L2 正则化的 FTRL-proximal 更新。</translation>
    </message>
    <message>
        <source>On a resource variable: Momentum update: accum = accum * momentum + grad; var -= lr * accum (or the Nesterov form).</source>
        <translation>作用于资源变量：Momentum 更新：accum = accum * momentum + grad; var -= lr * accum（或 Nesterov 形式）。</translation>
    </message>
    <message>
        <source>On a resource variable: RMSProp update: ms tracks the mean square of grad, mom the momentum of the scaled step.</source>
        <translation>作用于资源变量：RMSProp 更新：ms 跟踪 grad 的均方，mom 为缩放后步长的动量。</translation>
    </message>
    <message>
        <source>On a resource variable: var -= alpha * delta.</source>
        <translation>作用于资源变量：var -= alpha * delta。</translation>
    </message>
    <message>
        <source>Pads a tensor with a given constant.</source>
        <translation>用给定常数填充张量。</translation>
    </message>
    <message>
        <source>Pads a tensor with mirrored copies of its border.</source>
        <translation>用张量边界的镜像副本填充张量。</translation>
    </message>
    <message>
        <source>Pads a tensor with zeros.</source>
        <translation>用零填充张量。</translation>
    </message>
    <message>
        <source>Passes its input through unless a value is fed in its place.</source>
        <translation>直接传出其输入，除非在此处喂入了值。</translation>
    </message>
    <message>
        <source>Per-example softmax cross-entropy of logits against class indices, and its gradient.</source>
        <translation>logits 相对类别索引的逐样本 softmax 交叉熵及其梯度。</translation>
    </message>
    <message>
        <source>Per-example softmax cross-entropy of logits against label distributions, and its gradient.</source>
        <translation>logits 相对标签分布的逐样本 softmax 交叉熵及其梯度。</translation>
    </message>
    <message>
        <source>Permutes the dimensions of a tensor.</source>
        <translation>重排张量的各个维度。</translation>
    </message>
    <message>
        <source>Picks elements (or rows, for a vector condition) from t where the condition holds and from e elsewhere.</source>
        <translation>条件成立处从 t 取元素（条件为向量时取行），其余从 e 取。</translation>
    </message>
    <message>
        <source>Picks elements from t where the condition holds and from e elsewhere, broadcasting all three.</source>
        <translation>条件成立处从 t 取元素，其余从 e 取，三者均可广播。</translation>
    </message>
    <message>
        <source>Pops the element on top of the stack.</source>
        <translation>弹出栈顶元素。</translation>
    </message>
    <message>
        <source>Produces the tensor stored in its `value` attr.</source>
        <translation>产生存储在其 `value` 属性中的张量。</translation>
    </message>
    <message>
        <source>Pushes elem onto the stack and outputs it.</source>
        <translation>将 elem 压入栈并输出它。</translation>
    </message>
    <message>
        <source>QR decomposition of each inner [M, N] matrix: orthonormal q ([..., M, P], or [..., M, M] with full_matrices) and upper-triangular r ([..., P, N], or [..., M, N]), P = min(M, N).</source>
        <translation>对每个内层 [M, N] 矩阵做 QR 分解：正交归一的 q（[..., M, P]，full_matrices 时为 [..., M, M]）和上三角的 r（[..., P, N]，full_matrices 时为 [..., M, N]），P = min(M, N)。</translation>
    </message>
    <message>
        <source>RMSProp update: ms tracks the mean square of grad, mom the momentum of the scaled step.</source>
        <translation>RMSProp 更新：ms 跟踪 grad 的均方，mom 为缩放后步长的动量。</translation>
    </message>
    <message>
        <source>Raises e to the power of every element.</source>
        <translation>计算 e 的各元素次幂。</translation>
    </message>
    <message>
        <source>Raises x to the power y element-wise with broadcasting.</source>
        <translation>逐元素计算 x 的 y 次幂，支持广播。</translation>
    </message>
    <message>
        <source>Reads named tensors from a V2 checkpoint.</source>
        <translation>从 V2 检查点读取指定名称的张量。</translation>
    </message>
    <message>
        <source>Rectified linear unit capped at 6: min(max(features, 0), 6).</source>
        <translation>上限为 6 的线性整流单元：min(max(features, 0), 6)。</translation>
    </message>
    <message>
        <source>Rectified linear unit: max(features, 0).</source>
        <translation>线性整流单元：max(features, 0)。</translation>
    </message>
    <message>
        <source>Remainder of the flooring division of x by y; the result takes the sign of y.</source>
        <translation>x 除以 y 的向下取整除法的余数；结果的符号与 y 相同。</translation>
    </message>
    <message>
        <source>Remove the inputs&apos; directories afterwards when they are empty and not the destination&apos;s directory.</source>
        <translation>完成后删除输入所在的目录（若其为空且不是目标所在的目录）。</translation>
    </message>
    <message>
        <source>Removes dimensions of size 1.</source>
        <translation>删除大小为 1 的维度。</translation>
    </message>
    <message>
        <source>Repeats a tensor `multiples[i]` times along each dimension i.</source>
        <translation>沿每个维度 i 将张量重复 `multiples[i]` 次。</translation>
    </message>
    <message>
        <source>Returns a copy of its input.</source>
        <translation>返回其输入的副本。</translation>
    </message>
    <message>
        <source>Returns each of a list of tensors unchanged.</source>
        <translation>原样返回张量列表中的每个张量。</translation>
    </message>
    <message>
        <source>Returns its input unchanged.</source>
        <translation>原样返回其输入。</translation>
    </message>
    <message>
        <source>Returns its input; asking for its gradient is an error.</source>
        <translation>返回其输入；对其求梯度会报错。</translation>
    </message>
    <message>
        <source>Returns its input; gradients do not flow back through it.</source>
        <translation>返回其输入；梯度不会经由它反向传播。</translation>
    </message>
    <message>
        <source>Returns ones with the shape and type of its input.</source>
        <translation>返回与输入形状和类型相同的全一张量。</translation>
    </message>
    <message>
        <source>Returns the coordinates of the true (non-zero) elements.</source>
        <translation>返回为真（非零）元素的坐标。</translation>
    </message>
    <message>
        <source>Returns the number of dimensions of a tensor.</source>
        <translation>返回张量的维数。</translation>
    </message>
    <message>
        <source>Returns the number of elements of a tensor.</source>
        <translation>返回张量的元素个数。</translation>
    </message>
    <message>
        <source>Returns the shape of a tensor as a 1-D integer tensor.</source>
        <translation>以一维整数张量返回张量的形状。</translation>
    </message>
    <message>
        <source>Returns the shapes of N tensors.</source>
        <translation>返回 N 个张量的形状。</translation>
    </message>
    <message>
        <source>Returns zeros with the shape and type of its input.</source>
        <translation>返回与输入形状和类型相同的全零张量。</translation>
    </message>
    <message>
        <source>Reverses the order of elements along the given axes.</source>
        <translation>沿给定的轴反转元素顺序。</translation>
    </message>
    <message>
        <source>Rounds every element down to an integral value.</source>
        <translation>将每个元素向下取整。</translation>
    </message>
    <message>
        <source>Rounds every element to the nearest integer, halves to even.</source>
        <translation>将每个元素舍入到最接近的整数，恰为一半时取偶数。</translation>
    </message>
    <message>
        <source>Rounds every element up to an integral value.</source>
        <translation>将每个元素向上取整。</translation>
    </message>
    <message>
        <source>Same shape as `tags`.</source>
        <translation>形状与 `tags` 相同。</translation>
    </message>
    <message>
        <source>Samples of the standard normal distribution (mean 0, stddev 1), of the given shape.</source>
        <translation>标准正态分布（均值 0，标准差 1）的样本，形状为给定形状。</translation>
    </message>
    <message>
        <source>Scalar: the checkpoint prefix; the files are written as PREFIX.index and PREFIX.data-00000-of-00001.</source>
        <translation>标量：检查点前缀；文件写为 PREFIX.index 和 PREFIX.data-00000-of-00001。</translation>
    </message>
    <message>
        <source>Scalar: the prefix of the merged checkpoint.</source>
        <translation>标量：合并后检查点的前缀。</translation>
    </message>
    <message>
        <source>Scaled exponential linear unit with the fixed self-normalizing constants.</source>
        <translation>缩放指数线性单元，使用固定的自归一化常数。</translation>
    </message>
    <message>
        <source>Scatters the gradient of a StridedSlice into its input.</source>
        <translation>将 StridedSlice 的梯度分散回其输入。</translation>
    </message>
    <message>
        <source>Second-order gradient of MaxPool: grad (shaped as orig_input) read at the maximum of each window, shaped as orig_output.</source>
        <translation>MaxPool 的二阶梯度：在每个窗口的最大值处读取 grad（形状同 orig_input），结果形状同 orig_output。</translation>
    </message>
    <message>
        <source>Smooth rectifier: log(exp(features) + 1).</source>
        <translation>平滑整流函数：log(exp(features) + 1)。</translation>
    </message>
    <message>
        <source>Softmax over the last dimension: exp(logits) normalized to sum to 1.</source>
        <translation>最后一维上的 softmax：将 exp(logits) 归一化使其和为 1。</translation>
    </message>
    <message>
        <source>Softsign activation: features / (abs(features) + 1).</source>
        <translation>Softsign 激活函数：features / (abs(features) + 1)。</translation>
    </message>
    <message>
        <source>Solves matrix * output = rhs (or adjoint(matrix) * output = rhs) for each inner square triangular [M, M] matrix and [M, K] right-hand side by substitution; only the lower (lower = true) or upper triangle of `matrix` is read. Batch dimensions must be equal.</source>
        <translation>对每个内层三角方阵 [M, M] 及其右端项 [M, K]，用代入法求解 matrix * output = rhs（或 adjoint(matrix) * output = rhs）；只读取 `matrix` 的下三角（lower = true）或上三角。批维度必须相等。</translation>
    </message>
    <message>
        <source>Stacks N tensors of one shape into a tensor one rank higher.</source>
        <translation>将 N 个形状相同的张量堆叠为秩高一阶的张量。</translation>
    </message>
    <message>
        <source>Standard normal samples of the given shape, redrawn when more than 2 standard deviations from 0.</source>
        <translation>给定形状的标准正态样本，偏离 0 超过 2 个标准差时重新抽取。</translation>
    </message>
    <message>
        <source>Stands for a fed tensor; an older form of Placeholder.</source>
        <translation>代表一个喂入的张量；Placeholder 的旧形式。</translation>
    </message>
    <message>
        <source>Stands for a tensor that must be fed when the graph runs.</source>
        <translation>代表运行计算图时必须喂入的张量。</translation>
    </message>
    <message>
        <source>Stops the process with error_msg when it runs.</source>
        <translation>运行时以 error_msg 终止进程。</translation>
    </message>
    <message>
        <source>Stores a new value in a resource variable.</source>
        <translation>在资源变量中存入新值。</translation>
    </message>
    <message>
        <source>Stores value in the ref variable and outputs the ref.</source>
        <translation>将 value 存入引用变量，并输出该引用。</translation>
    </message>
    <message>
        <source>Subtracts a value from a resource variable in place.</source>
        <translation>就地从资源变量中减去一个值。</translation>
    </message>
    <message>
        <source>Subtracts value from the ref variable in place and outputs the ref.</source>
        <translation>就地从引用变量中减去 value，并输出该引用。</translation>
    </message>
    <message>
        <source>Subtracts y from x element-wise with broadcasting.</source>
        <translation>逐元素从 x 中减去 y，支持广播。</translation>
    </message>
    <message>
        <source>Sums a list of tensors of identical shape and type element-wise.</source>
        <translation>逐元素对形状和类型相同的一组张量求和。</translation>
    </message>
    <message>
        <source>Sums the gradient of a MirrorPad output back onto the unpadded input.</source>
        <translation>将 MirrorPad 输出的梯度累加回未填充的输入上。</translation>
    </message>
    <message>
        <source>Sums the slices of `data` into `num_segments` rows by `segment_ids`; negative ids are dropped.</source>
        <translation>按 `segment_ids` 将 `data` 的切片求和到 `num_segments` 行中；负的 id 被丢弃。</translation>
    </message>
    <message>
        <source>Takes one over every element.</source>
        <translation>对每个元素取倒数。</translation>
    </message>
    <message>
        <source>Takes one over the square root of every element.</source>
        <translation>对每个元素的平方根取倒数。</translation>
    </message>
    <message>
        <source>Takes the absolute value of every element.</source>
        <translation>对每个元素取绝对值。</translation>
    </message>
    <message>
        <source>Takes the cosine of every element.</source>
        <translation>对每个元素求余弦。</translation>
    </message>
    <message>
        <source>Takes the hyperbolic tangent of every element.</source>
        <translation>对每个元素求双曲正切。</translation>
    </message>
    <message>
        <source>Takes the inverse cosine of every element, in [0, pi].</source>
        <translation>对每个元素求反余弦，结果在 [0, pi] 内。</translation>
    </message>
    <message>
        <source>Takes the inverse sine of every element, in [-pi/2, pi/2].</source>
        <translation>对每个元素求反正弦，结果在 [-pi/2, pi/2] 内。</translation>
    </message>
    <message>
        <source>Takes the inverse tangent of every element, in (-pi/2, pi/2).</source>
        <translation>对每个元素求反正切，结果在 (-pi/2, pi/2) 内。</translation>
    </message>
    <message>
        <source>Takes the larger of x and y element-wise with broadcasting.</source>
        <translation>逐元素取 x 和 y 中的较大者，支持广播。</translation>
    </message>
    <message>
        <source>Takes the largest element along the given axes.</source>
        <translation>沿给定的轴取最大元素。</translation>
    </message>
    <message>
        <source>Takes the natural logarithm of every element.</source>
        <translation>对每个元素求自然对数。</translation>
    </message>
    <message>
        <source>Takes the natural logarithm of one plus every element, accurately near zero.</source>
        <translation>对每个元素加一后求自然对数，在零附近也保持精确。</translation>
    </message>
    <message>
        <source>Takes the sine of every element.</source>
        <translation>对每个元素求正弦。</translation>
    </message>
    <message>
        <source>Takes the smaller of x and y element-wise with broadcasting.</source>
        <translation>逐元素取 x 和 y 中的较小者，支持广播。</translation>
    </message>
    <message>
        <source>Takes the smallest element along the given axes.</source>
        <translation>沿给定的轴取最小元素。</translation>
    </message>
    <message>
        <source>Takes the square root of every element.</source>
        <translation>对每个元素求平方根。</translation>
    </message>
    <message>
        <source>Takes the tangent of every element.</source>
        <translation>对每个元素求正切。</translation>
    </message>
    <message>
        <source>Tells element-wise whether x != y, with broadcasting.</source>
        <translation>逐元素判断是否 x != y，支持广播。</translation>
    </message>
    <message>
        <source>Tells element-wise whether x &lt; y, with broadcasting.</source>
        <translation>逐元素判断是否 x &lt; y，支持广播。</translation>
    </message>
    <message>
        <source>Tells element-wise whether x &lt;= y, with broadcasting.</source>
        <translation>逐元素判断是否 x &lt;= y，支持广播。</translation>
    </message>
    <message>
        <source>Tells element-wise whether x == y, with broadcasting.</source>
        <translation>逐元素判断是否 x == y，支持广播。</translation>
    </message>
    <message>
        <source>Tells element-wise whether x &gt; y, with broadcasting.</source>
        <translation>逐元素判断是否 x &gt; y，支持广播。</translation>
    </message>
    <message>
        <source>Tells element-wise whether x &gt;= y, with broadcasting.</source>
        <translation>逐元素判断是否 x &gt;= y，支持广播。</translation>
    </message>
    <message>
        <source>Tells for every element whether it is an infinity.</source>
        <translation>判断每个元素是否为无穷大。</translation>
    </message>
    <message>
        <source>Tells for every element whether it is finite.</source>
        <translation>判断每个元素是否为有限值。</translation>
    </message>
    <message>
        <source>Tells for every element whether it is not a number.</source>
        <translation>判断每个元素是否为非数值（NaN）。</translation>
    </message>
    <message>
        <source>Tells whether every element along the given axes is true.</source>
        <translation>判断沿给定的轴是否所有元素都为真。</translation>
    </message>
    <message>
        <source>Tells whether some element along the given axes is true.</source>
        <translation>判断沿给定的轴是否有元素为真。</translation>
    </message>
    <message>
        <source>The N tensors to save.</source>
        <translation>要保存的 N 个张量。</translation>
    </message>
    <message>
        <source>The boolean scalar that decides whether a while loop goes on.</source>
        <translation>决定 while 循环是否继续的布尔标量。</translation>
    </message>
    <message>
        <source>The current value of a resource variable.</source>
        <translation>资源变量的当前值。</translation>
    </message>
    <message>
        <source>The diagonal of a tensor of even rank 2k with shape [D1..Dk, D1..Dk]: diagonal[i1..ik] = input[i1..ik, i1..ik].</source>
        <translation>形状为 [D1..Dk, D1..Dk]、秩为偶数 2k 的张量的对角线：diagonal[i1..ik] = input[i1..ik, i1..ik]。</translation>
    </message>
    <message>
        <source>The dtypes the N tensors must have in the checkpoint.</source>
        <translation>N 个张量在检查点中必须具有的 dtype。</translation>
    </message>
    <message>
        <source>The file name of one shard: &quot;BASENAME-00001-of-00004&quot;.</source>
        <translation>一个分片的文件名：&quot;BASENAME-00001-of-00004&quot;。</translation>
    </message>
    <message>
        <source>The glob matching every shard: &quot;BASENAME-?????-of-00004&quot;.</source>
        <translation>匹配所有分片的通配模式：&quot;BASENAME-?????-of-00004&quot;。</translation>
    </message>
    <message>
        <source>The main diagonal of each innermost matrix of `input` [..., M, N]: [..., min(M, N)].</source>
        <translation>`input` [..., M, N] 每个最内层矩阵的主对角线：[..., min(M, N)]。</translation>
    </message>
    <message>
        <source>The uint8 colour of pixels with a non-finite value.</source>
        <translation>值为非有限数的像素的 uint8 颜色。</translation>
    </message>
    <message>
        <source>The union of the values of several serialized Summary protos.</source>
        <translation>多个序列化 Summary proto 中各值的并集。</translation>
    </message>
    <message>
        <source>Two values with the same non-empty tag are an InvalidArgument error.</source>
        <translation>两个值具有相同的非空标签（tag）时报 InvalidArgument 错误。</translation>
    </message>
    <message>
        <source>Unstacks a tensor along one dimension into tensors one rank lower.</source>
        <translation>沿一个维度将张量拆分为秩低一阶的若干张量。</translation>
    </message>
    <message>
        <source>Vector of N names to read.</source>
        <translation>要读取的 N 个名称组成的向量。</translation>
    </message>
    <message>
        <source>Vector of N names, one per tensor; the keys in the checkpoint.</source>
        <translation>N 个名称组成的向量，每个张量一个；即检查点中的键。</translation>
    </message>
    <message>
        <source>Vector of N slice specs; &quot;&quot; reads the whole tensor.</source>
        <translation>N 个切片规格组成的向量；&quot;&quot; 表示读取整个张量。</translation>
    </message>
    <message>
        <source>Vector of N slice specs; &quot;&quot; saves the whole tensor.</source>
        <translation>N 个切片规格组成的向量；&quot;&quot; 表示保存整个张量。</translation>
    </message>
    <message>
        <source>Vector: the prefixes of the checkpoints to merge.</source>
        <translation>向量：要合并的各检查点的前缀。</translation>
    </message>
    <message>
        <source>Whether each target class is among the k highest predictions of its row.</source>
        <translation>每个目标类别是否在其所在行预测值最高的 k 个之中。</translation>
    </message>
    <message>
        <source>Whether the ref variable has been assigned a value yet.</source>
        <translation>引用变量是否已被赋值。</translation>
    </message>
    <message>
        <source>Whether the resource variable has been assigned a value yet.</source>
        <translation>资源变量是否已被赋值。</translation>
    </message>
    <message>
        <source>Writes tensors to a V2 checkpoint (PREFIX.index and PREFIX.data-*).</source>
        <translation>将张量写入 V2 检查点（PREFIX.index 和 PREFIX.data-*）。</translation>
    </message>
    <message>
        <source>[batch, frames] or [batch, frames, channels], values in [-1, 1].</source>
        <translation>[batch, frames] 或 [batch, frames, channels]，取值于 [-1, 1]。</translation>
    </message>
    <message>
        <source>`input` [..., M, N] with the main diagonal of each innermost matrix replaced by `diagonal` [..., min(M, N)].</source>
        <translation>将 `input` [..., M, N] 每个最内层矩阵的主对角线替换为 `diagonal` [..., min(M, N)] 后的结果。</translation>
    </message>
    <message>
        <source>num_samples class indices per row, drawn from the distribution given by the logits.</source>
        <translation>每行从 logits 给出的分布中抽取 num_samples 个类别索引。</translation>
    </message>
    <message>
        <source>var -= alpha * delta.</source>
        <translation>var -= alpha * delta（梯度下降更新）。</translation>
    </message>
    <message>
        <source>0-D, 1-D or 2-D [N, rank]: the index of each sparse value.</source>
        <translation>0 维、1 维或 2 维 [N, rank]：每个稀疏值的索引。</translation>
    </message>
    <message>
        <source>1-D [N] values, or a scalar used for every index.</source>
        <translation>1 维 [N] 的值，或用于每个索引的标量。</translation>
    </message>
    <message>
        <source>1-D int32 of 2 elements: new_height, new_width.</source>
        <translation>含 2 个元素的 1 维 int32：new_height、new_width。</translation>
    </message>
    <message>
        <source>1-D int32 of 2 elements: the original height and width.</source>
        <translation>含 2 个元素的 1 维 int32：原始高度和宽度。</translation>
    </message>
    <message>
        <source>1-D: the shape of the dense output.</source>
        <translation>1 维：稠密输出的形状。</translation>
    </message>
    <message>
        <source>Builds a dense tensor of shape output_shape from sparse indices and values; every other element is default_value.</source>
        <translation>由稀疏索引和值构建形状为 output_shape 的稠密张量；其余元素均为 default_value。</translation>
    </message>
    <message>
        <source>Gradient of ResizeBilinear: spreads each gradient over the 4 source pixels by their interpolation weights.</source>
        <translation>ResizeBilinear 的梯度：按插值权重将每个梯度分配到 4 个源像素上。</translation>
    </message>
    <message>
        <source>Gradient of ResizeNearestNeighbor: sums each gradient into the source pixel it was copied from.</source>
        <translation>ResizeNearestNeighbor 的梯度：将每个梯度累加到其复制来源的源像素上。</translation>
    </message>
    <message>
        <source>If true, indices must be in range, sorted lexicographically and unique.</source>
        <translation>若为 true，索引必须在范围内、按字典序排序且唯一。</translation>
    </message>
    <message>
        <source>If true, pixel centers are at (i + 0.5): source coordinates are (i + 0.5) * scale - 0.5 (nearest neighbor: (i + 0.5) * scale, floored).</source>
        <translation>若为 true，像素中心位于 (i + 0.5)：源坐标为 (i + 0.5) * scale - 0.5（最近邻：(i + 0.5) * scale，向下取整）。</translation>
    </message>
    <message>
        <source>If true, the centers of the 4 corner pixels of input and output are aligned: the scale is (in - 1) / (out - 1) instead of in / out.</source>
        <translation>若为 true，输入与输出 4 个角像素的中心对齐：缩放比例为 (in - 1) / (out - 1) 而非 in / out。</translation>
    </message>
    <message>
        <source>Resizes images [batch, height, width, channels] to `size` by bilinear interpolation; the output is float.</source>
        <translation>以双线性插值将图像 [batch, height, width, channels] 缩放到 `size`；输出为 float。</translation>
    </message>
    <message>
        <source>Resizes images [batch, height, width, channels] to `size` by copying the nearest source pixel.</source>
        <translation>通过复制最近的源像素将图像 [batch, height, width, channels] 缩放到 `size`。</translation>
    </message>
    <message>
        <source>Scalar: the value of the elements no index names.</source>
        <translation>标量：未被任何索引指定的元素的值。</translation>
    </message>
    <message>
        <source>The image that was resized; only its shape is read.</source>
        <translation>被缩放的图像；只读取其形状。</translation>
    </message>
    <message>
        <source>&apos;&apos; or &apos;INTEGER_FAST&apos; (libjpeg&apos;s fast integer IDCT), &apos;INTEGER_ACCURATE&apos; (the slow one).</source>
        <translation>&apos;&apos; 或 &apos;INTEGER_FAST&apos;（libjpeg 的快速整数 IDCT）、&apos;INTEGER_ACCURATE&apos;（较慢的那种）。</translation>
    </message>
    <message>
        <source>&apos;&apos; picks grey or RGB from the channels; &apos;grayscale&apos; and &apos;rgb&apos; require them.</source>
        <translation>&apos;&apos; 根据通道数选择灰度或 RGB；&apos;grayscale&apos; 和 &apos;rgb&apos; 要求通道数与之相符。</translation>
    </message>
    <message>
        <source>0-D. The JPEG file&apos;s bytes.</source>
        <translation>0 维。JPEG 文件的字节。</translation>
    </message>
    <message>
        <source>0-D. The PNG file&apos;s bytes.</source>
        <translation>0 维。PNG 文件的字节。</translation>
    </message>
    <message>
        <source>0-D. The encoded image bytes.</source>
        <translation>0 维。编码后的图像字节。</translation>
    </message>
    <message>
        <source>1-D int32 of 4 elements: [crop_y, crop_x, crop_height, crop_width].</source>
        <translation>含 4 个元素的 1 维 int32：[crop_y, crop_x, crop_height, crop_width]。</translation>
    </message>
    <message>
        <source>3-D [height, width, channels] for JPEG and PNG.</source>
        <translation>JPEG 和 PNG 为 3 维 [height, width, channels]。</translation>
    </message>
    <message>
        <source>3-D [height, width, channels].</source>
        <translation>3 维 [height, width, channels]。</translation>
    </message>
    <message>
        <source>3-D uint8 [height, width, channels].</source>
        <translation>3 维 uint8 [height, width, channels]。</translation>
    </message>
    <message>
        <source>3-D uint8 with 1 (grey) or 3 (RGB) channels.</source>
        <translation>3 维 uint8，1 个（灰度）或 3 个（RGB）通道。</translation>
    </message>
    <message>
        <source>3-D with 1 to 4 channels.</source>
        <translation>3 维，1 到 4 个通道。</translation>
    </message>
    <message>
        <source>A field equal to this is missing, as an empty field.</source>
        <translation>等于此值的字段视为缺失，与空字段相同。</translation>
    </message>
    <message>
        <source>A first-in first-out queue whose DequeueMany pads every component to the largest shape of the batch (-1 in `shapes` marks a dimension to pad).</source>
        <translation>先进先出队列，其 DequeueMany 会将每个分量填充到该批次中的最大形状（`shapes` 中的 -1 标记需要填充的维度）。</translation>
    </message>
    <message>
        <source>A queue that dequeues its elements in a random order, keeping at least min_after_dequeue of them until it is closed.</source>
        <translation>以随机顺序出队元素的队列；在关闭之前，队列中至少保留 min_after_dequeue 个元素。</translation>
    </message>
    <message>
        <source>A queue that produces elements in first-in first-out order.</source>
        <translation>按先进先出顺序产生元素的队列。</translation>
    </message>
    <message>
        <source>A reader of records of record_bytes bytes after header_bytes, before footer_bytes, each hop_bytes after the previous (0: record_bytes).</source>
        <translation>读取定长记录的读取器：记录位于 header_bytes 字节之后、footer_bytes 字节之前，每条 record_bytes 字节，相邻记录的起点相距 hop_bytes 字节（0：即 record_bytes）。</translation>
    </message>
    <message>
        <source>A reader of the lines of text files (without the newline).</source>
        <translation>逐行读取文本文件的读取器（不含换行符）。</translation>
    </message>
    <message>
        <source>A reader of the records of TFRecord files.</source>
        <translation>读取 TFRecord 文件中记录的读取器。</translation>
    </message>
    <message>
        <source>A reader whose one record per file is the whole file; the key is the file name.</source>
        <translation>将每个文件整体作为一条记录的读取器；键为文件名。</translation>
    </message>
    <message>
        <source>A scalar name of the proto for error messages (may be empty).</source>
        <translation>proto 的名称（标量），用于错误消息（可为空）。</translation>
    </message>
    <message>
        <source>A scalar or vector of serialized tf.train.Example protos.</source>
        <translation>序列化 tf.train.Example proto 组成的标量或向量。</translation>
    </message>
    <message>
        <source>A scalar or vector of serialized tf.train.SequenceExample protos.</source>
        <translation>序列化 tf.train.SequenceExample proto 组成的标量或向量。</translation>
    </message>
    <message>
        <source>A scalar string holding a serialized TensorProto.</source>
        <translation>包含序列化 TensorProto 的标量字符串。</translation>
    </message>
    <message>
        <source>A scalar string.</source>
        <translation>标量字符串。</translation>
    </message>
    <message>
        <source>A scalar: one serialized tf.train.Example.</source>
        <translation>标量：一个序列化的 tf.train.Example。</translation>
    </message>
    <message>
        <source>A scalar: one serialized tf.train.SequenceExample.</source>
        <translation>标量：一个序列化的 tf.train.SequenceExample。</translation>
    </message>
    <message>
        <source>A vector of serialized tf.train.Example protos, one per example.</source>
        <translation>序列化 tf.train.Example proto 组成的向量，每个样本一个。</translation>
    </message>
    <message>
        <source>A vector of serialized tf.train.SequenceExample protos.</source>
        <translation>序列化 tf.train.SequenceExample proto 组成的向量。</translation>
    </message>
    <message>
        <source>Adjusts the contrast of images: each channel of each image becomes (x - mean) * contrast_factor + mean, the mean taken over the image&apos;s pixels.</source>
        <translation>调整图像的对比度：每张图像的每个通道变为 (x - mean) * contrast_factor + mean，其中 mean 是在该图像各像素上求得的均值。</translation>
    </message>
    <message>
        <source>At least 1-D, the last dimension 3 (H, S, V).</source>
        <translation>至少 1 维，最后一维为 3（H、S、V）。</translation>
    </message>
    <message>
        <source>At least 1-D, the last dimension 3 (R, G, B).</source>
        <translation>至少 1 维，最后一维为 3（R、G、B）。</translation>
    </message>
    <message>
        <source>At least 3-D, the last dimension 3 (RGB).</source>
        <translation>至少 3 维，最后一维为 3（RGB）。</translation>
    </message>
    <message>
        <source>At least 3-D; the last three dimensions are [height, width, channels].</source>
        <translation>至少 3 维；最后三维为 [height, width, channels]。</translation>
    </message>
    <message>
        <source>Closes the queue: later enqueues fail, dequeues drain what is left; cancel_pending_enqueues also cancels blocked enqueues.</source>
        <translation>关闭队列：之后的入队操作会失败，出队操作取出剩余元素；cancel_pending_enqueues 还会取消被阻塞的入队操作。</translation>
    </message>
    <message>
        <source>Compute optimal Huffman tables: smaller files, slower encoding.</source>
        <translation>计算最优 Huffman 表：文件更小，编码更慢。</translation>
    </message>
    <message>
        <source>Converts CSV records (RFC 4180) to one tensor per column.</source>
        <translation>将 CSV 记录（RFC 4180）转换为每列一个张量。</translation>
    </message>
    <message>
        <source>Converts RGB values in [0, 1] to hue, saturation and value in [0, 1].</source>
        <translation>将 [0, 1] 内的 RGB 值转换为 [0, 1] 内的色相、饱和度和明度。</translation>
    </message>
    <message>
        <source>Converts each string to a number of out_type.</source>
        <translation>将每个字符串转换为 out_type 类型的数值。</translation>
    </message>
    <message>
        <source>Converts hue, saturation and value in [0, 1] to RGB values.</source>
        <translation>将 [0, 1] 内的色相、饱和度和明度转换为 RGB 值。</translation>
    </message>
    <message>
        <source>Decode a file that ends early as if it ended there.</source>
        <translation>解码提前结束的文件时，视其在该处正常结束。</translation>
    </message>
    <message>
        <source>Decodes a JPEG or PNG image (by its signature) to a uint8, uint16 or float32 tensor scaled as convert_image_dtype scales.</source>
        <translation>将 JPEG 或 PNG 图像（按文件签名识别）解码为 uint8、uint16 或 float32 张量，缩放方式与 convert_image_dtype 相同。</translation>
    </message>
    <message>
        <source>Decodes the crop window of a JPEG image, skipping the rows and columns outside it where libjpeg can.</source>
        <translation>解码 JPEG 图像的裁剪窗口，在 libjpeg 支持时跳过窗口外的行和列。</translation>
    </message>
    <message>
        <source>Dequeues n elements concatenated along a new dimension 0.</source>
        <translation>出队 n 个元素，沿新的第 0 维拼接。</translation>
    </message>
    <message>
        <source>Dequeues n elements, or fewer (at least one) once the queue is closed, concatenated along a new dimension 0.</source>
        <translation>出队 n 个元素（队列关闭后可以更少，但至少一个），沿新的第 0 维拼接。</translation>
    </message>
    <message>
        <source>Dequeues one element; waits until there is one or the queue is closed (then OutOfRange).</source>
        <translation>出队一个元素；等待直到有元素可取或队列关闭（此时报 OutOfRange）。</translation>
    </message>
    <message>
        <source>Downscaling ratio while decoding: 1, 2, 4 or 8.</source>
        <translation>解码时的缩小比例：1、2、4 或 8。</translation>
    </message>
    <message>
        <source>Each string is one record; every record has the same fields.</source>
        <translation>每个字符串为一条记录；所有记录的字段相同。</translation>
    </message>
    <message>
        <source>Encodes a uint8 image [height, width, channels] as JPEG.</source>
        <translation>将 uint8 图像 [height, width, channels] 编码为 JPEG。</translation>
    </message>
    <message>
        <source>Encodes a uint8 or uint16 image [height, width, channels] as PNG.</source>
        <translation>将 uint8 或 uint16 图像 [height, width, channels] 编码为 PNG。</translation>
    </message>
    <message>
        <source>Enqueues one element (a tuple of components); waits while the queue is full.</source>
        <translation>入队一个元素（由各分量组成的元组）；队列已满时等待。</translation>
    </message>
    <message>
        <source>Enqueues the slices of the components along dimension 0 as separate elements.</source>
        <translation>将各分量沿第 0 维的切片作为单独的元素入队。</translation>
    </message>
    <message>
        <source>Feature-list dense keys that may be missing: a missing list then has no steps.</source>
        <translation>可以缺失的特征列表稠密键：缺失时该列表没有任何步。</translation>
    </message>
    <message>
        <source>GIFs give 4-D [frames, height, width, 3] when true, their first frame otherwise (GIF decoding is not built in: such files are an error).</source>
        <translation>为 true 时 GIF 给出 4 维 [frames, height, width, 3]，否则只给出第一帧（未内置 GIF 解码：此类文件会报错）。</translation>
    </message>
    <message>
        <source>Halve the colour planes&apos; resolution (libjpeg&apos;s default).</source>
        <translation>将颜色平面的分辨率减半（libjpeg 的默认行为）。</translation>
    </message>
    <message>
        <source>Horizontal pixels per density unit.</source>
        <translation>每密度单位的水平像素数。</translation>
    </message>
    <message>
        <source>Increments the variable `ref` until it reaches `limit`; outputs the value before the increment, OutOfRange &quot;Reached limit of &lt;limit&gt;&quot; once it is reached.</source>
        <translation>递增变量 `ref` 直到其达到 `limit`；输出递增前的值，达到上限后报 OutOfRange &quot;Reached limit of &lt;limit&gt;&quot;。</translation>
    </message>
    <message>
        <source>Multiplies the HSV saturation of RGB images by `scale`, clipped to [0, 1].</source>
        <translation>将 RGB 图像的 HSV 饱和度乘以 `scale`，并裁剪到 [0, 1]。</translation>
    </message>
    <message>
        <source>Names of the protos (or empty), for error messages only.</source>
        <translation>各 proto 的名称（或为空），仅用于错误消息。</translation>
    </message>
    <message>
        <source>Names of the protos, shaped as serialized (or empty), for error messages only.</source>
        <translation>各 proto 的名称，形状与 serialized 相同（或为空），仅用于错误消息。</translation>
    </message>
    <message>
        <source>Names of the serialized protos (the same length as serialized, or empty), used in error messages only.</source>
        <translation>各序列化 proto 的名称（长度与 serialized 相同，或为空），仅用于错误消息。</translation>
    </message>
    <message>
        <source>Number of colour channels of the output: 0 keeps the file&apos;s, 1 grey, 3 RGB, 4 RGBA (not for JPEG).</source>
        <translation>输出的颜色通道数：0 保持文件本身的通道数，1 为灰度，3 为 RGB，4 为 RGBA（不适用于 JPEG）。</translation>
    </message>
    <message>
        <source>Number of colour channels of the output: 0 keeps the file&apos;s, 1 grey, 3 RGB.</source>
        <translation>输出的颜色通道数：0 保持文件本身的通道数，1 为灰度，3 为 RGB。</translation>
    </message>
    <message>
        <source>One bool per feature-list dense key: true when the list may be missing (then it has no steps).</source>
        <translation>每个特征列表稠密键一个 bool：为 true 时该列表可以缺失（缺失时没有任何步）。</translation>
    </message>
    <message>
        <source>One tensor per column, shaped as records.</source>
        <translation>每列一个张量，形状与 records 相同。</translation>
    </message>
    <message>
        <source>One tensor per column: a scalar (or one-element vector) default used for an empty or NA field, or empty when the column is required.</source>
        <translation>每列一个张量：字段为空或为 NA 时使用的默认值，为标量（或单元素向量）；该列为必需列时为空。</translation>
    </message>
    <message>
        <source>One tensor per context dense key: its default (of the key&apos;s shape) or empty when required.</source>
        <translation>每个上下文稠密键一个张量：其默认值（形状与该键相同），该键为必需时为空。</translation>
    </message>
    <message>
        <source>One tensor per dense key: its default when an example lacks the feature (its shape must be the dense shape), or empty when the feature is required. For a dense shape with an unknown first dimension: one element, the padding value. Its dtype is the feature&apos;s.</source>
        <translation>每个稠密键一个张量：样本缺少该特征时使用的默认值（其形状必须为稠密形状），该特征为必需时为空。若稠密形状的第一维未知：为单个元素，即填充值。其 dtype 与该特征相同。</translation>
    </message>
    <message>
        <source>Parses a batch of serialized tf.train.Example protos into dense tensors and sparse tensors (indices, values, dense shape).</source>
        <translation>将一批序列化的 tf.train.Example proto 解析为稠密张量和稀疏张量（索引、值、稠密形状）。</translation>
    </message>
    <message>
        <source>Parses a batch of serialized tf.train.SequenceExample protos: context features and feature lists, dense (padded) or sparse.</source>
        <translation>解析一批序列化的 tf.train.SequenceExample proto：上下文特征和特征列表，可为稠密（已填充）或稀疏。</translation>
    </message>
    <message>
        <source>Parses a serialized tensorflow.TensorProto into a tensor.</source>
        <translation>将序列化的 tensorflow.TensorProto 解析为张量。</translation>
    </message>
    <message>
        <source>Parses one serialized tf.train.Example proto into dense and sparse tensors.</source>
        <translation>将一个序列化的 tf.train.Example proto 解析为稠密张量和稀疏张量。</translation>
    </message>
    <message>
        <source>Parses one serialized tf.train.SequenceExample proto: context features and feature lists, dense or sparse.</source>
        <translation>解析一个序列化的 tf.train.SequenceExample proto：上下文特征和特征列表，可为稠密或稀疏。</translation>
    </message>
    <message>
        <source>Parses serialized tf.train.Example protos (a batch or one) into dense, sparse and ragged tensors.</source>
        <translation>将序列化的 tf.train.Example proto（一批或单个）解析为稠密张量、稀疏张量和不规则张量。</translation>
    </message>
    <message>
        <source>Parses serialized tf.train.SequenceExample protos (a batch or one) into dense, sparse and ragged tensors.</source>
        <translation>将序列化的 tf.train.SequenceExample proto（一批或单个）解析为稠密张量、稀疏张量和不规则张量。</translation>
    </message>
    <message>
        <source>Per dense key: [batch] + dense shape, the examples stacked.</source>
        <translation>每个稠密键：[batch] + 稠密形状，即各样本堆叠而成。</translation>
    </message>
    <message>
        <source>Per dense key: the dense shape.</source>
        <translation>每个稠密键：稠密形状。</translation>
    </message>
    <message>
        <source>Per feature-list dense key: the number of steps of each example.</source>
        <translation>每个特征列表稠密键：每个样本的步数。</translation>
    </message>
    <message>
        <source>Per ragged key: [batch + 1] offsets of each example&apos;s values (empty for a scalar input).</source>
        <translation>每个不规则键：各样本的值的 [batch + 1] 个偏移量（输入为标量时为空）。</translation>
    </message>
    <message>
        <source>Per ragged key: every example&apos;s values, concatenated.</source>
        <translation>每个不规则键：所有样本的值拼接而成。</translation>
    </message>
    <message>
        <source>Per sparse key: [N].</source>
        <translation>每个稀疏键：[N]。</translation>
    </message>
    <message>
        <source>Per sparse key: [batch, most values in one example].</source>
        <translation>每个稀疏键：[batch, 单个样本中的最多值个数]。</translation>
    </message>
    <message>
        <source>Per sparse key: int64 [N, 1], the position of each value.</source>
        <translation>每个稀疏键：int64 [N, 1]，即每个值的位置。</translation>
    </message>
    <message>
        <source>Per sparse key: int64 [N, 2], (example, position) of each value.</source>
        <translation>每个稀疏键：int64 [N, 2]，即每个值的 (样本, 位置)。</translation>
    </message>
    <message>
        <source>Per sparse key: the values, [N].</source>
        <translation>每个稀疏键：值，[N]。</translation>
    </message>
    <message>
        <source>Quality from 0 to 100 (higher is better and larger).</source>
        <translation>质量，取值 0 到 100（越高则质量越好、文件越大）。</translation>
    </message>
    <message>
        <source>Reads a tensor from the V1 checkpoint files a pattern matches.</source>
        <translation>从与模式匹配的 V1 检查点文件中读取张量。</translation>
    </message>
    <message>
        <source>Reads a tensor, or a slice of it, from the V1 checkpoint files a pattern matches.</source>
        <translation>从与模式匹配的 V1 检查点文件中读取张量或其切片。</translation>
    </message>
    <message>
        <source>Reads the shape [height, width, channels] of a JPEG image from its header without decoding it.</source>
        <translation>从 JPEG 图像的文件头读取其形状 [height, width, channels]，不进行解码。</translation>
    </message>
    <message>
        <source>Reinterprets the bytes of each string as a vector of numbers.</source>
        <translation>将每个字符串的字节重新解释为数值向量。</translation>
    </message>
    <message>
        <source>Resizes images [batch, height, width, channels] to `size` by averaging the source pixels each output pixel covers, weighted by the covered area; the output is float.</source>
        <translation>通过对每个输出像素所覆盖的源像素按覆盖面积加权求平均，将图像 [batch, height, width, channels] 缩放到 `size`；输出为 float。</translation>
    </message>
    <message>
        <source>Resizes images [batch, height, width, channels] to `size` by bicubic interpolation (Keys&apos; kernel, a = -0.75; -0.5 with half-pixel centers); the output is float.</source>
        <translation>以双三次插值将图像 [batch, height, width, channels] 缩放到 `size`（Keys 核，a = -0.75；使用半像素中心时为 -0.5）；输出为 float。</translation>
    </message>
    <message>
        <source>Restores the reader to its initial clean state.</source>
        <translation>将读取器恢复到初始的干净状态。</translation>
    </message>
    <message>
        <source>Rotates the hue of RGB images by `delta` (a fraction of the colour circle), keeping their value range.</source>
        <translation>将 RGB 图像的色相旋转 `delta`（色环的一个比例），保持其取值范围不变。</translation>
    </message>
    <message>
        <source>Scalar hue rotation, in [-1, 1].</source>
        <translation>标量色相旋转量，取值于 [-1, 1]。</translation>
    </message>
    <message>
        <source>Scalar keys of the features returned as dense tensors.</source>
        <translation>以稠密张量返回的特征的键（标量）。</translation>
    </message>
    <message>
        <source>Scalar keys of the features returned as sparse tensors.</source>
        <translation>以稀疏张量返回的特征的键（标量）。</translation>
    </message>
    <message>
        <source>Scalar multiplier of the distance from the mean.</source>
        <translation>与均值之间距离的标量乘数。</translation>
    </message>
    <message>
        <source>Scalar saturation factor.</source>
        <translation>标量饱和度因子。</translation>
    </message>
    <message>
        <source>Scalar: &quot;dim0 dim1 ... slice&quot; naming the slice to read; &quot;&quot; reads the whole tensor.</source>
        <translation>标量：指定要读取的切片的 &quot;dim0 dim1 ... slice&quot;；&quot;&quot; 表示读取整个张量。</translation>
    </message>
    <message>
        <source>Scalar: the checkpoint prefix. Without PREFIX.index it names a V1 checkpoint, which is read instead.</source>
        <translation>标量：检查点前缀。若不存在 PREFIX.index，则它指代 V1 检查点，并改为读取该检查点。</translation>
    </message>
    <message>
        <source>Scalar: the file to write.</source>
        <translation>标量：要写入的文件。</translation>
    </message>
    <message>
        <source>Scalar: the file, or a pattern such as &quot;model.ckpt-?????-of-00002&quot; matching every shard.</source>
        <translation>标量：文件，或匹配所有分片的模式，如 &quot;model.ckpt-?????-of-00002&quot;。</translation>
    </message>
    <message>
        <source>Scalar: the name of the tensor to read.</source>
        <translation>标量：要读取的张量的名称。</translation>
    </message>
    <message>
        <source>Serializes a tensor as a tensorflow.TensorProto.</source>
        <translation>将张量序列化为 tensorflow.TensorProto。</translation>
    </message>
    <message>
        <source>Strictly increasing indices of the columns to return (all when empty).</source>
        <translation>要返回的列的索引，严格递增（为空时返回所有列）。</translation>
    </message>
    <message>
        <source>Strings that all have the same length, a multiple of the size of out_type.</source>
        <translation>长度全部相同的字符串，长度为 out_type 大小的倍数。</translation>
    </message>
    <message>
        <source>The N tensors (or slices) to save.</source>
        <translation>要保存的 N 个张量（或切片）。</translation>
    </message>
    <message>
        <source>The dtype of each ragged feature&apos;s row splits.</source>
        <translation>每个不规则特征的行分割（row splits）的 dtype。</translation>
    </message>
    <message>
        <source>The dtype of each ragged feature.</source>
        <translation>每个不规则特征的 dtype。</translation>
    </message>
    <message>
        <source>The dtype of each sparse feature: float (FloatList), int64 (Int64List) or string (BytesList).</source>
        <translation>每个稀疏特征的 dtype：float（FloatList）、int64（Int64List）或 string（BytesList）。</translation>
    </message>
    <message>
        <source>The dtype of the shape.</source>
        <translation>形状的 dtype。</translation>
    </message>
    <message>
        <source>The dtype the serialized tensor must have (no conversion takes place).</source>
        <translation>序列化张量必须具有的 dtype（不进行转换）。</translation>
    </message>
    <message>
        <source>The dtype the tensor must have.</source>
        <translation>张量必须具有的 dtype。</translation>
    </message>
    <message>
        <source>The file to open first; -1 reads them in order.</source>
        <translation>首先打开的文件；-1 表示按顺序读取。</translation>
    </message>
    <message>
        <source>The fraction of rows a file that ends early must still give; the rest are 0.</source>
        <translation>提前结束的文件仍须提供的行数比例；其余行为 0。</translation>
    </message>
    <message>
        <source>The input&apos;s shape plus one dimension: the string length / the element size.</source>
        <translation>输入的形状再加一维：字符串长度 / 元素大小。</translation>
    </message>
    <message>
        <source>The keys returned as dense tensors.</source>
        <translation>以稠密张量返回的键。</translation>
    </message>
    <message>
        <source>The keys returned as sparse tensors.</source>
        <translation>以稀疏张量返回的键。</translation>
    </message>
    <message>
        <source>The next record (key, value); takes a work unit from the queue when the current one is done.</source>
        <translation>下一条记录 (key, value)；当前工作单元读完后从队列中取出下一个工作单元。</translation>
    </message>
    <message>
        <source>The number of elements in the queue.</source>
        <translation>队列中的元素个数。</translation>
    </message>
    <message>
        <source>The number of records the reader has produced.</source>
        <translation>读取器已产生的记录数。</translation>
    </message>
    <message>
        <source>The number of sparse keys.</source>
        <translation>稀疏键的个数。</translation>
    </message>
    <message>
        <source>The number of work units the reader has finished.</source>
        <translation>读取器已完成的工作单元数。</translation>
    </message>
    <message>
        <source>The number type. Integer overflow is an error; float overflow gives infinity.</source>
        <translation>数值类型。整数溢出会报错；浮点数溢出得到无穷大。</translation>
    </message>
    <message>
        <source>The one-character field delimiter.</source>
        <translation>单字符字段分隔符。</translation>
    </message>
    <message>
        <source>The output dtype; float32 values are in [0, 1].</source>
        <translation>输出的 dtype；float32 值在 [0, 1] 内。</translation>
    </message>
    <message>
        <source>The same shape: H, S, V.</source>
        <translation>形状相同：H、S、V。</translation>
    </message>
    <message>
        <source>The same shape: R, G, B.</source>
        <translation>形状相同：R、G、B。</translation>
    </message>
    <message>
        <source>The shape of each context dense feature (fully defined).</source>
        <translation>每个上下文稠密特征的形状（须完全确定）。</translation>
    </message>
    <message>
        <source>The shape of each dense feature&apos;s values in one example. All but the first dimension must be known; an unknown first dimension makes the feature variable-length (any number of blocks, padded to the longest example).</source>
        <translation>单个样本中每个稠密特征的值的形状。除第一维外的各维都必须已知；第一维未知时该特征为变长（块数任意，填充到最长的样本）。</translation>
    </message>
    <message>
        <source>The shape of one step of each feature-list dense feature.</source>
        <translation>每个特征列表稠密特征中单步的形状。</translation>
    </message>
    <message>
        <source>Unit of the pixel densities: pixels per inch or per centimetre.</source>
        <translation>像素密度的单位：每英寸像素数或每厘米像素数。</translation>
    </message>
    <message>
        <source>Up to num_records records; fewer when the queue of work units is closed and exhausted.</source>
        <translation>最多 num_records 条记录；工作单元队列关闭且耗尽时会更少。</translation>
    </message>
    <message>
        <source>Upsample the chroma planes with libjpeg&apos;s smooth (slower) filter.</source>
        <translation>使用 libjpeg 的平滑（较慢）滤波器对色度平面进行上采样。</translation>
    </message>
    <message>
        <source>Vector of N names, one per tensor.</source>
        <translation>N 个名称组成的向量，每个张量一个。</translation>
    </message>
    <message>
        <source>Vector of N specs &quot;dim0 dim1 ... slice&quot; (e.g. &quot;4 2 0,2:-&quot;); &quot;&quot; saves the whole tensor.</source>
        <translation>N 个规格 &quot;dim0 dim1 ... slice&quot; 组成的向量（如 &quot;4 2 0,2:-&quot;）；&quot;&quot; 表示保存整个张量。</translation>
    </message>
    <message>
        <source>Vector of feature-list dense keys that may be missing (then they have no steps).</source>
        <translation>可以缺失的特征列表稠密键组成的向量（缺失时没有任何步）。</translation>
    </message>
    <message>
        <source>Vector of the keys returned as dense tensors.</source>
        <translation>以稠密张量返回的键组成的向量。</translation>
    </message>
    <message>
        <source>Vector of the keys returned as ragged tensors.</source>
        <translation>以不规则张量返回的键组成的向量。</translation>
    </message>
    <message>
        <source>Vector of the keys returned as sparse tensors.</source>
        <translation>以稀疏张量返回的键组成的向量。</translation>
    </message>
    <message>
        <source>Vertical pixels per density unit.</source>
        <translation>每密度单位的垂直像素数。</translation>
    </message>
    <message>
        <source>Whether a double quote starts a quoted field (in which &quot;&quot; is a quote).</source>
        <translation>双引号是否开始一个带引号的字段（其中 &quot;&quot; 表示一个引号）。</translation>
    </message>
    <message>
        <source>Whether the bytes are little-endian (ignored for one-byte types).</source>
        <translation>字节是否为小端序（单字节类型忽略此项）。</translation>
    </message>
    <message>
        <source>Whether the queue is closed.</source>
        <translation>队列是否已关闭。</translation>
    </message>
    <message>
        <source>Write a progressive JPEG (coarse scans first).</source>
        <translation>写入渐进式 JPEG（先写粗略扫描）。</translation>
    </message>
    <message>
        <source>Writes tensors to a V1 checkpoint file (TensorFlow&apos;s legacy format).</source>
        <translation>将张量写入 V1 检查点文件（TensorFlow 的旧版格式）。</translation>
    </message>
    <message>
        <source>Writes tensors, or slices of larger tensors, to a V1 checkpoint file.</source>
        <translation>将张量或较大张量的切片写入 V1 检查点文件。</translation>
    </message>
    <message>
        <source>XMP metadata embedded in an APP1 marker when not empty.</source>
        <translation>XMP 元数据，不为空时嵌入 APP1 标记中。</translation>
    </message>
    <message>
        <source>uint8, or uint16 for 16 bits per sample (8-bit files are widened: v * 257).</source>
        <translation>uint8，或每个采样 16 位时为 uint16（8 位文件会被扩展：v * 257）。</translation>
    </message>
    <message>
        <source>zlib compression level from 0 to 9; -1 is zlib&apos;s default.</source>
        <translation>zlib 压缩级别，0 到 9；-1 为 zlib 的默认值。</translation>
    </message>
    <message>
        <source>Decodes a JPEG image to a uint8 tensor (PNG data is decoded too, as TensorFlow 1.15&apos;s kernel does).</source>
        <translation>将 JPEG 图像解码为 uint8 张量（与 TensorFlow 1.15 的内核一样，PNG 数据也会被解码）。</translation>
    </message>
    <message>
        <source>Decodes a PNG image to a uint8 or uint16 tensor (JPEG data is decoded too, as TensorFlow 1.15&apos;s kernel does).</source>
        <translation>将 PNG 图像解码为 uint8 或 uint16 张量（与 TensorFlow 1.15 的内核一样，JPEG 数据也会被解码）。</translation>
    </message>
    <message>
        <source>Calls the library function named by attr f (with f&apos;s attrs) on the inputs; Tin and Tout are the dtypes of the inputs and the outputs.</source>
        <translation>以输入调用属性 f 所指名的库函数（连同 f 的属性）；Tin 与 Tout 分别是输入与输出的数据类型。</translation>
    </message>
    <message>
        <source>Calls the library function named by attr f (with f&apos;s attrs) on the inputs; Tin and Tout are the dtypes of the inputs and the outputs. The call may have side effects (variables, random numbers): it is never pruned or folded.</source>
        <translation>以输入调用属性 f 所指名的库函数（连同 f 的属性）；Tin 与 Tout 分别是输入与输出的数据类型。该调用可能有副作用（变量、随机数）：它永远不会被剪除或折叠。</translation>
    </message>
    <message>
        <source>Returns f(args), where the body of function f is placed and partitioned across devices.</source>
        <translation>返回 f(args)，函数 f 的函数体被放置并划分到各设备上。</translation>
    </message>
    <message>
        <source>A dataset of one element: `components`.</source>
        <translation>只含一个元素的数据集：`components`。</translation>
    </message>
    <message>
        <source>A dataset of start, start + step, ... up to but excluding stop.</source>
        <translation>由 start, start + step, ... 组成的数据集，直到 stop 为止（不含 stop）。</translation>
    </message>
    <message>
        <source>A dataset of the dimension-0 slices of `components` (one element per row).</source>
        <translation>由 `components` 沿第 0 维的切片组成的数据集（每行一个元素）。</translation>
    </message>
    <message>
        <source>A dataset of the fixed-length records between a header and a footer of files.</source>
        <translation>由文件中位于头部与尾部之间的定长记录组成的数据集。</translation>
    </message>
    <message>
        <source>A dataset of the lines of text files, without their line ends.</source>
        <translation>由文本文件的各行组成的数据集，不含行尾符。</translation>
    </message>
    <message>
        <source>A dataset of the records of TFRecord files (compression_type &quot;&quot;, &quot;ZLIB&quot; or &quot;GZIP&quot;).</source>
        <translation>由 TFRecord 文件的记录组成的数据集（compression_type 为 &quot;&quot;、&quot;ZLIB&quot; 或 &quot;GZIP&quot;）。</translation>
    </message>
    <message>
        <source>A function taking T and returning T: the loop variables of the next iteration.</source>
        <translation>接受 T 并返回 T 的函数：返回下一次迭代的循环变量。</translation>
    </message>
    <message>
        <source>A function taking T and returning one tensor that says whether to run body again.</source>
        <translation>接受 T 并返回一个张量的函数，该张量表示是否再次运行 body。</translation>
    </message>
    <message>
        <source>A function taking Tin and returning Tout, run when cond is false.</source>
        <translation>接受 Tin 并返回 Tout 的函数，在 cond 为假时运行。</translation>
    </message>
    <message>
        <source>A function taking Tin and returning Tout, run when cond is true.</source>
        <translation>接受 Tin 并返回 Tout 的函数，在 cond 为真时运行。</translation>
    </message>
    <message>
        <source>A new iterator resource per run, with a deleter.</source>
        <translation>每次运行新建的迭代器资源，附带删除器（deleter）。</translation>
    </message>
    <message>
        <source>A new iterator resource per run.</source>
        <translation>每次运行新建的迭代器资源。</translation>
    </message>
    <message>
        <source>A new memory cache for CacheDatasetV2.</source>
        <translation>供 CacheDatasetV2 使用的新内存缓存。</translation>
    </message>
    <message>
        <source>A new reshuffling seed generator (deprecated form).</source>
        <translation>新的重新洗牌种子生成器（已弃用的形式）。</translation>
    </message>
    <message>
        <source>A new seed generator for ShuffleDatasetV2/V3.</source>
        <translation>供 ShuffleDatasetV2/V3 使用的新种子生成器。</translation>
    </message>
    <message>
        <source>A placeholder memory cache.</source>
        <translation>占位用的内存缓存。</translation>
    </message>
    <message>
        <source>A placeholder seed generator: ShuffleDatasetV3 then uses its seed inputs.</source>
        <translation>占位用的种子生成器：此时 ShuffleDatasetV3 改用其自身的种子输入。</translation>
    </message>
    <message>
        <source>A string that names `resource_handle` (a serialized ResourceHandleProto).</source>
        <translation>指代 `resource_handle` 的字符串（序列化的 ResourceHandleProto）。</translation>
    </message>
    <message>
        <source>An iterator over the dataset `dataset_factory` returns, made on first use.</source>
        <translation>遍历 `dataset_factory` 所返回数据集的迭代器，在首次使用时创建。</translation>
    </message>
    <message>
        <source>An iterator resource, to be initialised by MakeIterator.</source>
        <translation>迭代器资源，需由 MakeIterator 初始化。</translation>
    </message>
    <message>
        <source>Applies `f` to each element of `input_dataset`.</source>
        <translation>对 `input_dataset` 的每个元素应用 `f`。</translation>
    </message>
    <message>
        <source>Applies `f` to up to num_parallel_calls elements at once; the results keep the input order.</source>
        <translation>同时对最多 num_parallel_calls 个元素应用 `f`；结果保持输入顺序。</translation>
    </message>
    <message>
        <source>BatchDataset; drop_remainder drops a last, smaller batch.</source>
        <translation>BatchDataset；drop_remainder 会丢弃最后一个较小的批次。</translation>
    </message>
    <message>
        <source>Batches elements padded to padded_shapes (-1: the batch&apos;s largest size) with padding_values.</source>
        <translation>将元素以 padding_values 填充到 padded_shapes（-1：该批次中的最大大小）后组成批次。</translation>
    </message>
    <message>
        <source>CacheDataset whose memory cache is a resource.</source>
        <translation>内存缓存为资源的 CacheDataset。</translation>
    </message>
    <message>
        <source>Caches the elements of a complete pass in memory (filename &quot;&quot;) or in files.</source>
        <translation>将完整遍历一遍的元素缓存在内存中（filename 为 &quot;&quot;）或文件中。</translation>
    </message>
    <message>
        <source>Chooses the branch: then_branch when true, else_branch when false.</source>
        <translation>选择分支：为真时选 then_branch，为假时选 else_branch。</translation>
    </message>
    <message>
        <source>Computes the gradient function for function f via backpropagation.</source>
        <translation>通过反向传播计算函数 f 的梯度函数。</translation>
    </message>
    <message>
        <source>Deletes a memory cache.</source>
        <translation>删除内存缓存。</translation>
    </message>
    <message>
        <source>Deletes a seed generator (deprecated form).</source>
        <translation>删除种子生成器（已弃用的形式）。</translation>
    </message>
    <message>
        <source>Deletes a seed generator.</source>
        <translation>删除种子生成器。</translation>
    </message>
    <message>
        <source>Deletes an iterator resource.</source>
        <translation>删除迭代器资源。</translation>
    </message>
    <message>
        <source>Elements made of one element of each input, until one of them ends.</source>
        <translation>由每个输入各取一个元素组成的元素，直到其中任一输入结束。</translation>
    </message>
    <message>
        <source>FixedLengthRecordDataset of files that may be ZLIB or GZIP compressed.</source>
        <translation>文件可为 ZLIB 或 GZIP 压缩格式的 FixedLengthRecordDataset。</translation>
    </message>
    <message>
        <source>For a function f taking N inputs x and returning M outputs y, the input is (x, dL/dy) (N + M tensors) and the output is dL/dx (N tensors), for a scalar L of the caller. The gradient is the function the library names as f&apos;s gradient (a GradientDef) when there is one, else f&apos;s body differentiated. f may also name While or StatelessWhile with a loop&apos;s attrs: the gradient of that loop.</source>
        <translation>对于接受 N 个输入 x 并返回 M 个输出 y 的函数 f，输入为 (x, dL/dy)（N + M 个张量），输出为 dL/dx（N 个张量），其中 L 是调用方的某个标量。若函数库将某个函数指定为 f 的梯度（GradientDef），则梯度为该函数，否则对 f 的函数体求导。f 也可以指名 While 或 StatelessWhile 并带上循环的属性：此时求的是该循环的梯度。</translation>
    </message>
    <message>
        <source>Gathers slices of a resource variable&apos;s value along axis 0 according to `indices`.</source>
        <translation>按 `indices` 沿第 0 轴收集资源变量值的切片。</translation>
    </message>
    <message>
        <source>Hands out a random element of a buffer of buffer_size elements (seed == seed2 == 0: a nondeterministic order).</source>
        <translation>每次从含 buffer_size 个元素的缓冲区中随机取出一个元素（seed == seed2 == 0：顺序不确定）。</translation>
    </message>
    <message>
        <source>How many iterations may run at once (iterations run one after the other here).</source>
        <translation>可同时运行的迭代数（此处各次迭代依次运行）。</translation>
    </message>
    <message>
        <source>InterleaveDataset producing the open datasets on threads of their own.</source>
        <translation>各个已打开的数据集在各自的线程上产生元素的 InterleaveDataset。</translation>
    </message>
    <message>
        <source>Interleaves block_length elements at a time of cycle_length datasets `f` returns.</source>
        <translation>在 `f` 返回的 cycle_length 个数据集之间交错取元素，每次取 block_length 个。</translation>
    </message>
    <message>
        <source>IteratorGetNext, computed synchronously.</source>
        <translation>同步计算的 IteratorGetNext。</translation>
    </message>
    <message>
        <source>PaddedBatchDataset; drop_remainder drops a last, smaller batch.</source>
        <translation>PaddedBatchDataset；drop_remainder 会丢弃最后一个较小的批次。</translation>
    </message>
    <message>
        <source>ParallelInterleaveDatasetV2 with `deterministic` instead of `sloppy`.</source>
        <translation>以 `deterministic` 代替 `sloppy` 的 ParallelInterleaveDatasetV2。</translation>
    </message>
    <message>
        <source>ParallelInterleaveDatasetV3 with buffer_output_elements and prefetch_input_elements.</source>
        <translation>带有 buffer_output_elements 和 prefetch_input_elements 的 ParallelInterleaveDatasetV3。</translation>
    </message>
    <message>
        <source>ParallelMapDataset with an int64 num_parallel_calls (-1: AUTOTUNE).</source>
        <translation>num_parallel_calls 为 int64 的 ParallelMapDataset（-1：AUTOTUNE）。</translation>
    </message>
    <message>
        <source>Produces up to buffer_size elements ahead on a background thread.</source>
        <translation>在后台线程上提前生成最多 buffer_size 个元素。</translation>
    </message>
    <message>
        <source>Runs one of two library functions on the inputs and returns its results. A cond that is not a boolean counts as true when it is a non-zero number or a non-empty string (a scalar), or a non-empty tensor (any other shape). The branches may have side effects (variables, random numbers).</source>
        <translation>以输入运行两个库函数之一并返回其结果。cond 不是布尔值时，若为非零数值或非空字符串（标量），或为非空张量（其他任意形状），则视为真。各分支可以有副作用（变量、随机数）。</translation>
    </message>
    <message>
        <source>Runs one of two library functions on the inputs and returns its results. A cond that is not a boolean counts as true when it is a non-zero number or a non-empty string (a scalar), or a non-empty tensor (any other shape). The branches must have no side effects.</source>
        <translation>以输入运行两个库函数之一并返回其结果。cond 不是布尔值时，若为非零数值或非空字符串（标量），或为非空张量（其他任意形状），则视为真。各分支必须没有副作用。</translation>
    </message>
    <message>
        <source>Runs the library function body on the loop variables as long as the function cond, called on them, returns true (a scalar that is not a boolean counts as true when non-zero or non-empty; another shape when non-empty). The loop variables may change shape from one iteration to the next. The body may have side effects (variables, random numbers).</source>
        <translation>只要以循环变量调用函数 cond 返回真，就对循环变量运行库函数 body（非布尔值的标量在非零或非空时视为真；其他形状在非空时视为真）。循环变量的形状可以在各次迭代之间改变。body 可以有副作用（变量、随机数）。</translation>
    </message>
    <message>
        <source>Runs the library function body on the loop variables as long as the function cond, called on them, returns true (a scalar that is not a boolean counts as true when non-zero or non-empty; another shape when non-empty). The loop variables may change shape from one iteration to the next. The body must have no side effects.</source>
        <translation>只要以循环变量调用函数 cond 返回真，就对循环变量运行库函数 body（非布尔值的标量在非零或非空时视为真；其他形状在非空时视为真）。循环变量的形状可以在各次迭代之间改变。body 必须没有副作用。</translation>
    </message>
    <message>
        <source>ShuffleDataset whose seeds come from a seed generator resource.</source>
        <translation>种子来自种子生成器资源的 ShuffleDataset。</translation>
    </message>
    <message>
        <source>ShuffleDataset with seeds and a seed generator (a dummy one: the seeds are used).</source>
        <translation>同时带有种子输入和种子生成器的 ShuffleDataset（生成器仅为占位，实际使用种子输入）。</translation>
    </message>
    <message>
        <source>Stacks batch_size consecutive elements along a new dimension 0.</source>
        <translation>将 batch_size 个连续元素沿新的第 0 维堆叠。</translation>
    </message>
    <message>
        <source>Starts `iterator` at the beginning of `dataset`.</source>
        <translation>使 `iterator` 从 `dataset` 的开头开始。</translation>
    </message>
    <message>
        <source>TensorFlow&apos;s variables may copy their buffer on each read while a sparse update is under way; ours never copy on read, so this op has no effect.</source>
        <translation>TensorFlow 的变量在稀疏更新进行期间可能在每次读取时复制其缓冲区；此引擎的变量从不在读取时复制，因此此操作没有任何作用。</translation>
    </message>
    <message>
        <source>The N gradients of f&apos;s inputs.</source>
        <translation>f 的 N 个输入的梯度。</translation>
    </message>
    <message>
        <source>The N inputs of f, then the M gradients of its outputs.</source>
        <translation>f 的 N 个输入，其后是其 M 个输出的梯度。</translation>
    </message>
    <message>
        <source>The branch functions&apos; arguments (dtypes Tin).</source>
        <translation>分支函数的参数（dtype 为 Tin）。</translation>
    </message>
    <message>
        <source>The elements after the first `count` (-1: none).</source>
        <translation>前 `count` 个之后的元素（-1：无）。</translation>
    </message>
    <message>
        <source>The elements of `input_dataset` `count` times (-1: forever).</source>
        <translation>将 `input_dataset` 的元素重复 `count` 次（-1：无限重复）。</translation>
    </message>
    <message>
        <source>The elements of `input_dataset` for which `predicate` returns true.</source>
        <translation>`input_dataset` 中使 `predicate` 返回真的元素。</translation>
    </message>
    <message>
        <source>The elements of `input_dataset`, then those of `another_dataset`.</source>
        <translation>先是 `input_dataset` 的元素，然后是 `another_dataset` 的元素。</translation>
    </message>
    <message>
        <source>The elements of the datasets `f` returns for each element, one dataset after the other.</source>
        <translation>`f` 为每个元素返回的数据集中的元素，按数据集逐个依次排列。</translation>
    </message>
    <message>
        <source>The first `count` elements (-1: all).</source>
        <translation>前 `count` 个元素（-1：全部）。</translation>
    </message>
    <message>
        <source>The function to differentiate, with its attrs.</source>
        <translation>要求导的函数，连同其属性。</translation>
    </message>
    <message>
        <source>The initial values of the loop variables.</source>
        <translation>循环变量的初始值。</translation>
    </message>
    <message>
        <source>The input dataset (TensorFlow autotunes it; the elements are the same).</source>
        <translation>输入数据集（TensorFlow 会对其自动调优；元素不变）。</translation>
    </message>
    <message>
        <source>The input dataset (TensorFlow rewrites it for speed; the elements are the same).</source>
        <translation>输入数据集（TensorFlow 会为提速而改写它；元素不变）。</translation>
    </message>
    <message>
        <source>The iterator a string handle names.</source>
        <translation>字符串句柄所指的迭代器。</translation>
    </message>
    <message>
        <source>The loop variables after the last iteration.</source>
        <translation>最后一次迭代之后的循环变量。</translation>
    </message>
    <message>
        <source>The next element of `iterator`; OutOfRange &quot;End of sequence&quot; at the end.</source>
        <translation>`iterator` 的下一个元素；到达末尾时报 OutOfRange &quot;End of sequence&quot;。</translation>
    </message>
    <message>
        <source>The one element of `dataset` (InvalidArgument when it has none or more).</source>
        <translation>`dataset` 的唯一元素（没有元素或多于一个时报 InvalidArgument）。</translation>
    </message>
    <message>
        <source>The outputs&apos; shapes when known (one per output), else empty.</source>
        <translation>已知时为各输出的形状（每个输出一个），否则为空。</translation>
    </message>
    <message>
        <source>Turns off the copy-on-read mode of a resource variable.</source>
        <translation>关闭资源变量的读时复制（copy-on-read）模式。</translation>
    </message>
    <message>
        <source>output = cond ? then_branch(input) : else_branch(input)</source>
        <translation>output = cond ? then_branch(input) : else_branch(input)</translation>
    </message>
    <message>
        <source>output = input; While (cond(output)) { output = body(output) }</source>
        <translation>output = input; While (cond(output)) { output = body(output) }</translation>
    </message>
    <message>
        <source>output[i, ...] = value[indices[i], ...] for every index (of any shape): the output&apos;s shape is indices&apos; shape followed by the value&apos;s shape without its first dimension. An index outside [0, rows) is an error.</source>
        <translation>对每个索引有 output[i, ...] = value[indices[i], ...]（indices 可为任意形状）：输出的形状为 indices 的形状后接去掉第一维的 value 形状。超出 [0, rows) 的索引会报错。</translation>
    </message>
    <message>
        <source>Adagrad update of the rows named by indices: accum[i] += grad^2; var[i] -= lr * grad / sqrt(accum[i]).</source>
        <translation>对 indices 指定的行做 Adagrad 更新：accum[i] += grad^2；var[i] -= lr * grad / sqrt(accum[i])。</translation>
    </message>
    <message>
        <source>An array of tensors of one dtype for one step: written once per index, read (and, with clear_after_read, freed) by index; with dynamic_size writes past the end grow it. Outputs the array&apos;s handle and a flow scalar that orders the ops using it.</source>
        <translation>单步内使用的同一数据类型的张量数组：每个索引只写入一次，按索引读取（设置 clear_after_read 时读取后即释放）；设置 dynamic_size 时，写到末尾之后会使数组增长。输出数组的句柄和一个 flow 标量，后者确定使用该数组的各操作的先后顺序。</translation>
    </message>
    <message>
        <source>As TensorArrayGradV3, with shape_to_prepend put before every element shape of the gradient array.</source>
        <translation>同 TensorArrayGradV3，但梯度数组每个元素的形状前面加上 shape_to_prepend。</translation>
    </message>
    <message>
        <source>Centered RMSProp update of the rows named by indices: mg and ms track the mean and mean square of grad.</source>
        <translation>对 indices 指定的行做中心化 RMSProp 更新：mg 与 ms 跟踪 grad 的均值与均方。</translation>
    </message>
    <message>
        <source>Cuts value along dimension 0 into pieces of the given lengths, one per element.</source>
        <translation>沿第 0 维把 value 切成给定长度的若干段，每段作为一个元素。</translation>
    </message>
    <message>
        <source>Every element concatenated along dimension 0, and the length of each along that dimension.</source>
        <translation>所有元素沿第 0 维拼接的结果，以及每个元素在该维上的长度。</translation>
    </message>
    <message>
        <source>Frees the elements of the TensorArray; later uses of it fail.</source>
        <translation>释放 TensorArray 的元素；之后再使用它会出错。</translation>
    </message>
    <message>
        <source>Momentum update of the rows named by indices: accum[i] = accum[i] * momentum + grad; var[i] -= lr * accum[i] (or the Nesterov form).</source>
        <translation>对 indices 指定的行做动量更新：accum[i] = accum[i] * momentum + grad；var[i] -= lr * accum[i]（或 Nesterov 形式）。</translation>
    </message>
    <message>
        <source>On a resource variable: Adagrad update of the rows named by indices: accum[i] += grad^2; var[i] -= lr * grad / sqrt(accum[i]).</source>
        <translation>作用于资源变量：对 indices 指定的行做 Adagrad 更新：accum[i] += grad^2；var[i] -= lr * grad / sqrt(accum[i])。</translation>
    </message>
    <message>
        <source>On a resource variable: Centered RMSProp update of the rows named by indices: mg and ms track the mean and mean square of grad.</source>
        <translation>作用于资源变量：对 indices 指定的行做中心化 RMSProp 更新：mg 与 ms 跟踪 grad 的均值与均方。</translation>
    </message>
    <message>
        <source>On a resource variable: Momentum update of the rows named by indices: accum[i] = accum[i] * momentum + grad; var[i] -= lr * accum[i] (or the Nesterov form).</source>
        <translation>作用于资源变量：对 indices 指定的行做动量更新：accum[i] = accum[i] * momentum + grad；var[i] -= lr * accum[i]（或 Nesterov 形式）。</translation>
    </message>
    <message>
        <source>On a resource variable: RMSProp update of the rows named by indices: ms tracks the mean square of grad, mom the momentum of the scaled step.</source>
        <translation>作用于资源变量：对 indices 指定的行做 RMSProp 更新：ms 跟踪 grad 的均方，mom 为缩放后步长的动量。</translation>
    </message>
    <message>
        <source>On a resource variable: ref[indices, ...] *= updates[...] (repeated indices multiply).</source>
        <translation>作用于资源变量：ref[indices, ...] *= updates[...]（重复的索引依次相乘）。</translation>
    </message>
    <message>
        <source>On a resource variable: ref[indices, ...] += updates[...] (repeated indices add up).</source>
        <translation>作用于资源变量：ref[indices, ...] += updates[...]（重复的索引累加）。</translation>
    </message>
    <message>
        <source>On a resource variable: ref[indices, ...] -= updates[...] (repeated indices add up).</source>
        <translation>作用于资源变量：ref[indices, ...] -= updates[...]（重复的索引累加）。</translation>
    </message>
    <message>
        <source>On a resource variable: ref[indices, ...] /= updates[...] (repeated indices divide in turn).</source>
        <translation>作用于资源变量：ref[indices, ...] /= updates[...]（重复的索引依次相除）。</translation>
    </message>
    <message>
        <source>On a resource variable: ref[indices, ...] = updates[...] (with repeated indices, the last update wins).</source>
        <translation>作用于资源变量：ref[indices, ...] = updates[...]（索引重复时以最后一次更新为准）。</translation>
    </message>
    <message>
        <source>RMSProp update of the rows named by indices: ms tracks the mean square of grad, mom the momentum of the scaled step.</source>
        <translation>对 indices 指定的行做 RMSProp 更新：ms 跟踪 grad 的均方，mom 为缩放后步长的动量。</translation>
    </message>
    <message>
        <source>Reads the element at index of the TensorArray.</source>
        <translation>读取 TensorArray 中 index 处的元素。</translation>
    </message>
    <message>
        <source>The current size of the TensorArray.</source>
        <translation>TensorArray 当前的大小。</translation>
    </message>
    <message>
        <source>The elements at indices, stacked along a new dimension 0.</source>
        <translation>indices 所指的各元素，沿新的第 0 维堆叠。</translation>
    </message>
    <message>
        <source>The gradient array of a TensorArray for one gradient computation (source), made on first use: same size and element shapes, and writes to one index add up.</source>
        <translation>某个 TensorArray 在一次梯度计算（source）中的梯度数组，首次使用时创建：大小和元素形状与原数组相同，对同一索引的多次写入会累加。</translation>
    </message>
    <message>
        <source>Writes the slices of value along dimension 0 at indices.</source>
        <translation>把 value 沿第 0 维的各切片写到 indices 所指的位置。</translation>
    </message>
    <message>
        <source>Writes value at index of the TensorArray.</source>
        <translation>把 value 写到 TensorArray 的 index 处。</translation>
    </message>
    <message>
        <source>grad holds one row per entry of the vector indices; the rows are processed in the order of indices, so a repeated index is updated once per occurrence. An index outside [0, rows) is an error.</source>
        <translation>grad 为向量 indices 的每个元素各存一行；各行按 indices 的顺序处理，因此重复的索引每出现一次就更新一次。超出 [0, rows) 的索引会报错。</translation>
    </message>
    <message>
        <source>indices (any shape, int32 or int64) name rows of the variable&apos;s first dimension; updates has shape indices.shape + var.shape[1:], or is a scalar applied to every named row. An index outside [0, rows) is an error.</source>
        <translation>indices（任意形状，int32 或 int64）指定变量第一维中的行；updates 的形状为 indices.shape + var.shape[1:]，或为标量，作用于每个指定的行。超出 [0, rows) 的索引会报错。</translation>
    </message>
    <message>
        <source>ref[indices, ...] *= updates[...] (repeated indices multiply).</source>
        <translation>ref[indices, ...] *= updates[...]（重复的索引依次相乘）。</translation>
    </message>
    <message>
        <source>ref[indices, ...] += updates[...] (repeated indices add up).</source>
        <translation>ref[indices, ...] += updates[...]（重复的索引累加）。</translation>
    </message>
    <message>
        <source>ref[indices, ...] -= updates[...] (repeated indices add up).</source>
        <translation>ref[indices, ...] -= updates[...]（重复的索引累加）。</translation>
    </message>
    <message>
        <source>ref[indices, ...] /= updates[...] (repeated indices divide in turn).</source>
        <translation>ref[indices, ...] /= updates[...]（重复的索引依次相除）。</translation>
    </message>
    <message>
        <source>ref[indices, ...] = updates[...] (with repeated indices, the last update wins).</source>
        <translation>ref[indices, ...] = updates[...]（索引重复时以最后一次更新为准）。</translation>
    </message>
    <message>
        <source>Reverses the first `seq_lengths[i]` elements along `seq_dim` of each slice `i` along `batch_dim`; the elements past the length stay in place.</source>
        <translation>沿 `batch_dim` 取每个切片 `i`，将其沿 `seq_dim` 的前 `seq_lengths[i]` 个元素反转；超出该长度的元素保持原位。</translation>
    </message>
    <message>
        <source>Splits `data` into `num_partitions` tensors by `partitions`: the slice data[js, ...] goes to outputs[partitions[js]], in the order of js.</source>
        <translation>按 `partitions` 将 `data` 拆分为 `num_partitions` 个张量：切片 data[js, ...] 进入 outputs[partitions[js]]，按 js 的顺序排列。</translation>
    </message>
    <message>
        <source>Copies the tensor of one process of an MPI job to every process (Horovod&apos;s broadcast).</source>
        <translation>将 MPI 作业中某一个进程的张量复制到每个进程（Horovod 的 broadcast）。</translation>
    </message>
    <message>
        <source>Every process runs the node with a tensor of the same dtype and shape; each gets the element-wise sum over all processes. Processes are matched by the node&apos;s name, so their graphs may run the nodes in different orders. Averaging is the caller&apos;s: Horovod&apos;s DistributedOptimizer divides the sum by the number of processes.</source>
        <translation>每个进程都以相同 dtype 和形状的张量运行此节点；每个进程得到所有进程上逐元素的和。进程之间按节点名称配对，因此各进程的图可以按不同顺序运行这些节点。求平均由调用方完成：Horovod 的 DistributedOptimizer 将和除以进程数。</translation>
    </message>
    <message>
        <source>Every process runs the node with a tensor of the same dtype and shape; each gets the value that the process root_rank passed in. Used to start every process from rank 0&apos;s initial variables.</source>
        <translation>每个进程都以相同 dtype 和形状的张量运行此节点；每个进程得到进程 root_rank 传入的值。用于让每个进程都从 rank 0 的初始变量开始。</translation>
    </message>
    <message>
        <source>Sums a tensor over every process of an MPI job (Horovod&apos;s allreduce).</source>
        <translation>对 MPI 作业中所有进程的张量求和（Horovod 的 allreduce）。</translation>
    </message>
    <message>
        <source>A conditional accumulator for aggregating gradients (resource handle).</source>
        <translation>用于聚合梯度的条件累加器（资源句柄）。</translation>
    </message>
    <message>
        <source>A conditional accumulator for aggregating gradients.</source>
        <translation>用于聚合梯度的条件累加器。</translation>
    </message>
    <message>
        <source>A conditional accumulator for aggregating sparse gradients (IndexedSlices).</source>
        <translation>用于聚合稀疏梯度（IndexedSlices）的条件累加器。</translation>
    </message>
    <message>
        <source>Applies a gradient to a given accumulator; a gradient whose local_step is older than the accumulator&apos;s global step is dropped.</source>
        <translation>将一个梯度应用到给定的累加器；local_step 早于累加器全局步数的梯度会被丢弃。</translation>
    </message>
    <message>
        <source>Applies a sparse gradient (indices, values, shape) to a given accumulator; a gradient whose local_step is older than the accumulator&apos;s global step is dropped.</source>
        <translation>将一个稀疏梯度（indices、values、shape）应用到给定的累加器；local_step 早于累加器全局步数的梯度会被丢弃。</translation>
    </message>
    <message>
        <source>Boolean indicating whether gradient_shape is unknown, in which case the input is ignored during validation.</source>
        <translation>布尔值，表示 gradient_shape 是否未知；未知时校验会忽略该输入。</translation>
    </message>
    <message>
        <source>Extracts the average gradient in the given ConditionalAccumulator once num_required gradients have been accumulated (it waits until then); resets the aggregate to 0 and increments the accumulator&apos;s global step.</source>
        <translation>在给定的 ConditionalAccumulator 累积了 num_required 个梯度后取出平均梯度（在此之前一直等待）；随后将聚合值重置为 0，并将累加器的全局步数加一。</translation>
    </message>
    <message>
        <source>Extracts the average sparse gradient (indices, values, shape) in a SparseConditionalAccumulator once num_required gradients have been accumulated; rows are averaged over the gradients that had them.</source>
        <translation>在 SparseConditionalAccumulator 累积了 num_required 个梯度后取出平均稀疏梯度（indices、values、shape）；每一行按包含该行的梯度求平均。</translation>
    </message>
    <message>
        <source>If non-empty, this accumulator is placed in the given container. Otherwise, a default container is used.</source>
        <translation>非空时，此累加器放在给定的容器中；否则使用默认容器。</translation>
    </message>
    <message>
        <source>If non-empty, this accumulator will be shared under the given name across multiple sessions.</source>
        <translation>非空时，此累加器将以给定名称在多个会话之间共享。</translation>
    </message>
    <message>
        <source>MEAN: the gradients taken are divided by their count (per row for sparse gradients); SUM: summed.</source>
        <translation>MEAN：取出的梯度除以其个数（稀疏梯度按行计算）；SUM：求和。</translation>
    </message>
    <message>
        <source>Returns the number of gradients aggregated in the given accumulator.</source>
        <translation>返回给定累加器中已聚合的梯度个数。</translation>
    </message>
    <message>
        <source>The accumulator accepts gradients marked with local_step greater or equal to the most recent global_step known to the accumulator. The average can be extracted from the accumulator, provided sufficient gradients have been accumulated. Extracting the average automatically resets the aggregate to 0, and increments the global_step recorded by the accumulator.</source>
        <translation>累加器接受 local_step 大于或等于其已知最新 global_step 的梯度。累积了足够的梯度后，可以从累加器中取出平均值。取出平均值会自动将聚合值重置为 0，并将累加器记录的 global_step 加一。</translation>
    </message>
    <message>
        <source>The data type of accumulated gradients. Needs to correspond to the type of the accumulator.</source>
        <translation>累积梯度的数据类型，须与累加器的类型一致。</translation>
    </message>
    <message>
        <source>The shape of the values, can be [], in which case shape is unknown.</source>
        <translation>值的形状，可以为 []，此时形状未知。</translation>
    </message>
    <message>
        <source>The type of the value being accumulated.</source>
        <translation>被累积的值的类型。</translation>
    </message>
    <message>
        <source>Updates the accumulator with a new value for global_step; a value lower than the accumulator&apos;s own step logs a warning.</source>
        <translation>用新的 global_step 值更新累加器；若该值小于累加器自身的步数，则记录一条警告。</translation>
    </message>
    <message>
        <source>0-D: sums with |sum| &lt; thresh are not kept.</source>
        <translation>0-D：|sum| &lt; thresh 的和不予保留。</translation>
    </message>
    <message>
        <source>1-D [2]: the dense shape of A.</source>
        <translation>1-D [2]：A 的稠密形状。</translation>
    </message>
    <message>
        <source>1-D [N]: the gradient of the input values.</source>
        <translation>1-D [N]：输入值的梯度。</translation>
    </message>
    <message>
        <source>1-D [N]: the output position of each input entry.</source>
        <translation>1-D [N]：每个输入条目的输出位置。</translation>
    </message>
    <message>
        <source>1-D [N]: the value of each index.</source>
        <translation>1-D [N]：每个索引的值。</translation>
    </message>
    <message>
        <source>1-D [N]: the values of A.</source>
        <translation>1-D [N]：A 的值。</translation>
    </message>
    <message>
        <source>1-D [N]: the values, moved with their indices.</source>
        <translation>1-D [N]：随其索引一同移动的值。</translation>
    </message>
    <message>
        <source>1-D [R]: the dense shape.</source>
        <translation>1-D [R]：稠密形状。</translation>
    </message>
    <message>
        <source>1-D [R]: the size of the slice in each dimension.</source>
        <translation>1-D [R]：切片在每个维度上的大小。</translation>
    </message>
    <message>
        <source>1-D [R]: the slice&apos;s start.</source>
        <translation>1-D [R]：切片的起点。</translation>
    </message>
    <message>
        <source>1-D [R]: the start of the slice in each dimension.</source>
        <translation>1-D [R]：切片在每个维度上的起点。</translation>
    </message>
    <message>
        <source>1-D [R_in]: its dense shape.</source>
        <translation>1-D [R_in]：其稠密形状。</translation>
    </message>
    <message>
        <source>1-D [R_out]: the new dense shape, -1 resolved.</source>
        <translation>1-D [R_out]：新的稠密形状，-1 已解析。</translation>
    </message>
    <message>
        <source>1-D [R_out]: the requested dense shape; at most one -1, inferred.</source>
        <translation>1-D [R_out]：请求的稠密形状；最多一个 -1，由推断得出。</translation>
    </message>
    <message>
        <source>1-D [data.shape[0]], sorted: the output row of each row of data.</source>
        <translation>1-D [data.shape[0]]，已排序：data 每一行对应的输出行。</translation>
    </message>
    <message>
        <source>1-D [dense_shape[0]]: whether each row was empty.</source>
        <translation>1-D [dense_shape[0]]：每一行是否为空。</translation>
    </message>
    <message>
        <source>1-D, sorted: the output row of each entry.</source>
        <translation>1-D，已排序：每个条目对应的输出行。</translation>
    </message>
    <message>
        <source>1-D: the dense shape of each input.</source>
        <translation>1-D：每个输入的稠密形状。</translation>
    </message>
    <message>
        <source>1-D: the gradient of SparseSlice&apos;s output values.</source>
        <translation>1-D：SparseSlice 输出值的梯度。</translation>
    </message>
    <message>
        <source>1-D: the row of data each entry takes.</source>
        <translation>1-D：每个条目所取的 data 行。</translation>
    </message>
    <message>
        <source>1-D: the values of each input.</source>
        <translation>1-D：每个输入的值。</translation>
    </message>
    <message>
        <source>2-D [N, 2]: the indices of A.</source>
        <translation>2-D [N, 2]：A 的索引。</translation>
    </message>
    <message>
        <source>2-D [N, R]: SparseSlice&apos;s input indices.</source>
        <translation>2-D [N, R]：SparseSlice 的输入索引。</translation>
    </message>
    <message>
        <source>2-D [N, R]: indices in any order.</source>
        <translation>2-D [N, R]：任意顺序的索引。</translation>
    </message>
    <message>
        <source>2-D [N, R]: the same indices, sorted.</source>
        <translation>2-D [N, R]：相同的索引，已排序。</translation>
    </message>
    <message>
        <source>2-D [N, R_in]: the indices of the input SparseTensor.</source>
        <translation>2-D [N, R_in]：输入 SparseTensor 的索引。</translation>
    </message>
    <message>
        <source>2-D [N, R_out]: the indices in the new shape, in the input&apos;s order.</source>
        <translation>2-D [N, R_out]：新形状下的索引，顺序与输入相同。</translation>
    </message>
    <message>
        <source>2-D: SparseSlice&apos;s output indices.</source>
        <translation>2-D：SparseSlice 的输出索引。</translation>
    </message>
    <message>
        <source>2-D: the dense matrix.</source>
        <translation>2-D：稠密矩阵。</translation>
    </message>
    <message>
        <source>2-D: the indices of each input.</source>
        <translation>2-D：每个输入的索引。</translation>
    </message>
    <message>
        <source>A hash table filled once by an initializer, then read-only (lookups before that fail).</source>
        <translation>由初始化器填充一次、此后只读的哈希表（在此之前的查找会失败）。</translation>
    </message>
    <message>
        <source>A hash table of scalar values that LookupTableInsert and LookupTableRemoveV2 change.</source>
        <translation>由 LookupTableInsert 和 LookupTableRemoveV2 修改的标量值哈希表。</translation>
    </message>
    <message>
        <source>A list of consecutive slices of tensor along dimension 0, slice i holding lengths[i] rows.</source>
        <translation>tensor 沿第 0 维的连续切片组成的列表，第 i 个切片包含 lengths[i] 行。</translation>
    </message>
    <message>
        <source>A list of num_elements elements, none of them set yet.</source>
        <translation>包含 num_elements 个元素的列表，其中尚无任何元素被设置。</translation>
    </message>
    <message>
        <source>A list whose elements are the rows of tensor.</source>
        <translation>元素为 tensor 各行的列表。</translation>
    </message>
    <message>
        <source>A list with no elements, of element_dtype elements fitting element_shape (-1: any shape), holding at most max_num_elements of them (-1: no limit).</source>
        <translation>不含元素的列表，元素类型为 element_dtype、符合 element_shape（-1：任意形状），最多容纳 max_num_elements 个元素（-1：不限）。</translation>
    </message>
    <message>
        <source>A list with row i of tensor at indices[i], as long as the largest index needs.</source>
        <translation>tensor 的第 i 行位于 indices[i] 处的列表，长度为最大索引所需的长度。</translation>
    </message>
    <message>
        <source>A mutable hash table whose values are vectors of value_shape.</source>
        <translation>值为 value_shape 形状向量的可变哈希表。</translation>
    </message>
    <message>
        <source>A mutable open-addressing hash table whose buckets are checkpointed as they are; empty_key marks free buckets and may not be used as a key.</source>
        <translation>可变的开放寻址哈希表，其桶按原样写入检查点；empty_key 标记空闲桶，不能用作键。</translation>
    </message>
    <message>
        <source>Adds a SparseTensor to a dense tensor of the same shape; the result is dense.</source>
        <translation>将 SparseTensor 与形状相同的稠密张量相加；结果为稠密张量。</translation>
    </message>
    <message>
        <source>Adds default_value at [row, 0, ...] for every row of a SparseTensor that has no entry; reports the empty rows and where each input entry went.</source>
        <translation>为 SparseTensor 中每个没有条目的行在 [row, 0, ...] 处添加 default_value；报告空行以及每个输入条目的去向。</translation>
    </message>
    <message>
        <source>Adds entries to a mutable table, replacing the values of keys already in it.</source>
        <translation>向可变表添加条目，替换表中已有键的值。</translation>
    </message>
    <message>
        <source>Adds two SparseTensors of the same shape (indices in the standard order); a summed entry whose magnitude is below thresh is dropped.</source>
        <translation>将两个形状相同的 SparseTensor 相加（索引按标准顺序）；相加后幅值小于 thresh 的条目将被丢弃。</translation>
    </message>
    <message>
        <source>An RE2 regular expression (https://github.com/google/re2/wiki/Syntax).</source>
        <translation>RE2 正则表达式（https://github.com/google/re2/wiki/Syntax）。</translation>
    </message>
    <message>
        <source>As Bucketize, with the boundaries given as a float tensor (tf.contrib.boosted_trees).</source>
        <translation>同 Bucketize，但边界以 float 张量给出（tf.contrib.boosted_trees）。</translation>
    </message>
    <message>
        <source>As TensorListConcat; elements never set take their length from leading_dims.</source>
        <translation>同 TensorListConcat；从未设置的元素从 leading_dims 获取其长度。</translation>
    </message>
    <message>
        <source>As TensorListScatter, the list at least num_elements long (-1: as long as the largest index needs).</source>
        <translation>同 TensorListScatter，列表长度至少为 num_elements（-1：为最大索引所需的长度）。</translation>
    </message>
    <message>
        <source>At most one character, one of printf&apos;s flags: &quot;0&quot; pads with zeros, &quot;-&quot; pads on the right, &quot;+&quot; and &quot; &quot; mark positive numbers, &quot;#&quot; keeps the decimal point; empty pads with spaces.</source>
        <translation>最多一个字符，为 printf 的标志之一：&quot;0&quot; 用零填充，&quot;-&quot; 在右侧填充，&quot;+&quot; 和 &quot; &quot; 标记正数，&quot;#&quot; 保留小数点；为空时用空格填充。</translation>
    </message>
    <message>
        <source>Averages the rows data[indices[i]] per segment_ids[i].</source>
        <translation>按 segment_ids[i] 对行 data[indices[i]] 求平均。</translation>
    </message>
    <message>
        <source>Averages the rows data[indices[i]] per segment_ids[i]. The output has num_segments rows.</source>
        <translation>按 segment_ids[i] 对行 data[indices[i]] 求平均。输出有 num_segments 行。</translation>
    </message>
    <message>
        <source>Backpropagates through Inv: -dy * y * y for y = 1 / x (ReciprocalGrad).</source>
        <translation>Inv 的反向传播：对 y = 1 / x 计算 -dy * y * y（ReciprocalGrad）。</translation>
    </message>
    <message>
        <source>Bucket i holds the values in [boundaries[i-1], boundaries[i]); values below the first boundary are in bucket 0, values at or above the last in bucket len(boundaries).</source>
        <translation>桶 i 容纳 [boundaries[i-1], boundaries[i]) 中的值；小于第一个边界的值落入桶 0，大于或等于最后一个边界的值落入桶 len(boundaries)。</translation>
    </message>
    <message>
        <source>Concatenates N SparseTensors along concat_dim; their other dimensions must match. The output is in the standard order.</source>
        <translation>沿 concat_dim 拼接 N 个 SparseTensor；它们的其他维度必须一致。输出采用标准顺序。</translation>
    </message>
    <message>
        <source>Deprecated: the bucket of each string from TensorFlow&apos;s legacy 64-bit hash (MurmurHash64A with a fixed seed) modulo num_buckets.</source>
        <translation>已弃用：每个字符串按 TensorFlow 旧版 64 位哈希（使用固定种子的 MurmurHash64A）对 num_buckets 取模所得的桶。</translation>
    </message>
    <message>
        <source>Digits after the decimal point of floating-point numbers (6 when -1); an error for the other types.</source>
        <translation>浮点数小数点后的位数（为 -1 时取 6）；对其他类型会报错。</translation>
    </message>
    <message>
        <source>Elements printed at each end of every dimension; longer dimensions show &quot;...&quot; between them. Negative: every element.</source>
        <translation>每个维度两端打印的元素个数；更长的维度在两端之间显示 &quot;...&quot;。为负数时：打印全部元素。</translation>
    </message>
    <message>
        <source>Every element of the list concatenated along dimension 0, and the length of each along it.</source>
        <translation>列表中所有元素沿维度 0 拼接的结果，以及每个元素沿该维度的长度。</translation>
    </message>
    <message>
        <source>Every element of the list stacked along a new first dimension; elements never set are zeros of the element shape. num_elements, unless -1, is the length the list must have.</source>
        <translation>列表中所有元素沿新的第一个维度堆叠的结果；从未设置的元素为元素形状的零值。num_elements 若不为 -1，则为列表必须具有的长度。</translation>
    </message>
    <message>
        <source>Every key and value of a table.</source>
        <translation>表中的所有键和值。</translation>
    </message>
    <message>
        <source>Fills a table once from a key vector and a value vector of equal length.</source>
        <translation>用等长的键向量和值向量一次性填充表。</translation>
    </message>
    <message>
        <source>Fills a table once from a text file, one entry per line.</source>
        <translation>从文本文件一次性填充表，每行一个条目。</translation>
    </message>
    <message>
        <source>Floating-point numbers in scientific notation (printf&apos;s %e).</source>
        <translation>以科学计数法表示浮点数（printf 的 %e）。</translation>
    </message>
    <message>
        <source>Floating-point numbers in the shorter of plain and scientific notation (printf&apos;s %g); not together with scientific.</source>
        <translation>以普通表示法和科学计数法中较短者表示浮点数（printf 的 %g）；不可与 scientific 同时使用。</translation>
    </message>
    <message>
        <source>Formats tensors into a template string, each printed as tf.print prints it.</source>
        <translation>将张量格式化到模板字符串中，每个张量按 tf.print 的方式打印。</translation>
    </message>
    <message>
        <source>How many buckets the hashes are spread over; the output lies in [0, num_buckets).</source>
        <translation>哈希值分布到的桶数；输出位于 [0, num_buckets) 中。</translation>
    </message>
    <message>
        <source>Joins strings along the given dimensions, in row-major order.</source>
        <translation>沿给定维度按行优先顺序连接字符串。</translation>
    </message>
    <message>
        <source>Keep the joined dimensions with length 1.</source>
        <translation>保留被连接的维度，长度为 1。</translation>
    </message>
    <message>
        <source>Kept for old graphs; StringToHashBucketFast gives another, faster and portable, bucketing.</source>
        <translation>为旧图保留；StringToHashBucketFast 提供另一种更快且可移植的分桶方式。</translation>
    </message>
    <message>
        <source>Looks keys up: one value per key, default_value for keys not in the table.</source>
        <translation>查找键：每个键对应一个值，不在表中的键取 default_value。</translation>
    </message>
    <message>
        <source>Marks removed entries; may not be a key.</source>
        <translation>标记已删除的条目；不能用作键。</translation>
    </message>
    <message>
        <source>Multiplies a rank-2 SparseTensor A by a dense matrix B (either one optionally adjointed).</source>
        <translation>将秩为 2 的 SparseTensor A 与稠密矩阵 B 相乘（二者均可选择取伴随）。</translation>
    </message>
    <message>
        <source>Pad each number (each part of a complex one) to at least this many characters; -1: no padding.</source>
        <translation>将每个数字（复数的每个部分）填充至至少这么多个字符；-1：不填充。</translation>
    </message>
    <message>
        <source>Position by position, the elements of the list in input_a followed by those of the list in input_b.</source>
        <translation>逐位置地，input_a 中列表的元素后接 input_b 中列表的元素。</translation>
    </message>
    <message>
        <source>Put between the joined strings.</source>
        <translation>放在被连接的字符串之间。</translation>
    </message>
    <message>
        <source>Puts the entries of a SparseTensor in the canonical row-major (lexicographic) order of their indices.</source>
        <translation>将 SparseTensor 的条目按其索引的规范行优先（字典序）顺序排列。</translation>
    </message>
    <message>
        <source>RegexFullMatch with the regex as an attr, compiled once; TensorFlow 2&apos;s savers test their prefix with it (&quot;^s3://.*&quot;).</source>
        <translation>以正则表达式作为 attr 的 RegexFullMatch，只编译一次；TensorFlow 2 的保存器用它检查前缀（&quot;^s3://.*&quot;）。</translation>
    </message>
    <message>
        <source>RegexReplace with the regex and rewrite as attrs.</source>
        <translation>以正则表达式和替换串作为 attr 的 RegexReplace。</translation>
    </message>
    <message>
        <source>Removes keys and their values from a mutable table; absent keys are ignored.</source>
        <translation>从可变表中删除键及其值；不存在的键会被忽略。</translation>
    </message>
    <message>
        <source>Replace every non-overlapping match; false replaces the first only.</source>
        <translation>替换每个不重叠的匹配；为 false 时只替换第一个。</translation>
    </message>
    <message>
        <source>Replaces a table&apos;s contents by the given keys and values (initializes a HashTable).</source>
        <translation>用给定的键和值替换表的内容（初始化 HashTable）。</translation>
    </message>
    <message>
        <source>Replaces the matches of a regex in every string.</source>
        <translation>替换每个字符串中正则表达式的匹配项。</translation>
    </message>
    <message>
        <source>Reshapes a SparseTensor to new_shape (one entry may be -1): the indices are recomputed from each value&apos;s position in the dense tensor; values stay as they are.</source>
        <translation>将 SparseTensor 重塑为 new_shape（其中一项可为 -1）：根据每个值在稠密张量中的位置重新计算索引；值保持不变。</translation>
    </message>
    <message>
        <source>Scalar or vector of shell wildcard patterns: `*`, `?` and `[...]` within one path component, in directories too (&quot;logs/*/events.*&quot;).</source>
        <translation>shell 通配符模式的标量或向量：`*`、`?` 和 `[...]` 作用于单个路径组成部分内，目录中同样适用（&quot;logs/*/events.*&quot;）。</translation>
    </message>
    <message>
        <source>Scalar. An RE2 regular expression (https://github.com/google/re2/wiki/Syntax).</source>
        <translation>标量。一个 RE2 正则表达式（https://github.com/google/re2/wiki/Syntax）。</translation>
    </message>
    <message>
        <source>Scalar. The replacement: \0 is the whole match, \1 to \9 the capture groups, \\ a backslash.</source>
        <translation>标量。替换串：\0 为整个匹配，\1 到 \9 为捕获组，\\ 为反斜杠。</translation>
    </message>
    <message>
        <source>Scalar: the formatted text.</source>
        <translation>标量：格式化后的文本。</translation>
    </message>
    <message>
        <source>Scalar: the number of output rows, above every segment id.</source>
        <translation>标量：输出的行数，大于所有段 id。</translation>
    </message>
    <message>
        <source>Scalar: the number of rows of the forward op&apos;s data.</source>
        <translation>标量：前向 op 的 data 的行数。</translation>
    </message>
    <message>
        <source>Sums the rows data[indices[i]] per segment_ids[i], divided by sqrt(count).</source>
        <translation>按 segment_ids[i] 对行 data[indices[i]] 求和，再除以 sqrt(count)。</translation>
    </message>
    <message>
        <source>Sums the rows data[indices[i]] per segment_ids[i], divided by sqrt(count). The output has num_segments rows.</source>
        <translation>按 segment_ids[i] 对行 data[indices[i]] 求和，再除以 sqrt(count)。输出有 num_segments 行。</translation>
    </message>
    <message>
        <source>Sums the rows data[indices[i]] per segment_ids[i].</source>
        <translation>按 segment_ids[i] 对行 data[indices[i]] 求和。</translation>
    </message>
    <message>
        <source>Sums the rows data[indices[i]] per segment_ids[i]. The output has num_segments rows.</source>
        <translation>按 segment_ids[i] 对行 data[indices[i]] 求和。输出有 num_segments 行。</translation>
    </message>
    <message>
        <source>Sums the rows of data per sorted segment_ids; the output has segment_ids[-1] + 1 rows.</source>
        <translation>按已排序的 segment_ids 对 data 的行求和；输出有 segment_ids[-1] + 1 行。</translation>
    </message>
    <message>
        <source>Tables of one shared_name are one table across the nodes of a session.</source>
        <translation>具有相同 shared_name 的表在会话的各节点之间是同一个表。</translation>
    </message>
    <message>
        <source>Takes one over every element: Reciprocal&apos;s name in TensorFlow 0.x.</source>
        <translation>对每个元素取倒数：Reciprocal 在 TensorFlow 0.x 中的名称。</translation>
    </message>
    <message>
        <source>Tells for every string whether the whole of it matches a regex.</source>
        <translation>判断每个字符串是否整体匹配正则表达式。</translation>
    </message>
    <message>
        <source>The boundaries are converted to the input&apos;s type before the comparison and must then be sorted ascending.</source>
        <translation>比较前会先将 boundaries 转换为输入的类型，转换后必须按升序排列。</translation>
    </message>
    <message>
        <source>The bucket boundaries, sorted ascending.</source>
        <translation>分桶边界，按升序排列。</translation>
    </message>
    <message>
        <source>The bucket index of every element: how many of the sorted boundaries are less than or equal to it.</source>
        <translation>每个元素的桶索引：已排序的 boundaries 中小于或等于该元素的个数。</translation>
    </message>
    <message>
        <source>The bucket of each string, an int64 tensor of the input&apos;s shape.</source>
        <translation>每个字符串所属的桶，为与输入形状相同的 int64 张量。</translation>
    </message>
    <message>
        <source>The bucket of each string: FarmHash&apos;s Fingerprint64 modulo num_buckets.</source>
        <translation>每个字符串所属的桶：FarmHash 的 Fingerprint64 对 num_buckets 取模。</translation>
    </message>
    <message>
        <source>The bucket of each string: a keyed SipHash-2-4 modulo num_buckets.</source>
        <translation>每个字符串所属的桶：带密钥的 SipHash-2-4 对 num_buckets 取模。</translation>
    </message>
    <message>
        <source>The dimension to join along, in [-rank, rank).</source>
        <translation>沿其拼接的维度，取值范围为 [-rank, rank)。</translation>
    </message>
    <message>
        <source>The dimensions to join over (negative ones count from the end); none joins nothing. tf.strings.reduce_join passes every dimension by default.</source>
        <translation>要在其上拼接的维度（负数从末尾开始计数）；为空则不拼接。tf.strings.reduce_join 默认传入所有维度。</translation>
    </message>
    <message>
        <source>The element at index (zeros of element_shape when it was never set).</source>
        <translation>index 处的元素（若从未设置过，则为 element_shape 形状的零）。</translation>
    </message>
    <message>
        <source>The element shape of the list: -1 when its rank is unknown, else a vector with -1 for unknown sizes.</source>
        <translation>列表的元素形状：秩未知时为 -1，否则为一个向量，其中未知的大小为 -1。</translation>
    </message>
    <message>
        <source>The elements at indices, stacked.</source>
        <translation>indices 处的元素，堆叠在一起。</translation>
    </message>
    <message>
        <source>The entries of a SparseTensor inside [start, start + size), shifted by -start; the shape is the slice clipped to the input.</source>
        <translation>SparseTensor 中位于 [start, start + size) 内的条目，平移 -start；形状为裁剪到输入范围内的切片。</translation>
    </message>
    <message>
        <source>The file&apos;s path, a scalar.</source>
        <translation>文件的路径，为标量。</translation>
    </message>
    <message>
        <source>The files one or more glob patterns match, sorted.</source>
        <translation>与一个或多个 glob 模式匹配的文件，已排序。</translation>
    </message>
    <message>
        <source>The fingerprint is the same on every platform and in every release, so buckets are stable across exports; it is not resistant to inputs chosen to collide (see StringToHashBucketStrong).</source>
        <translation>该指纹在所有平台和所有版本中都相同，因此分桶在多次导出之间保持稳定；但它无法抵御刻意构造以产生碰撞的输入（参见 StringToHashBucketStrong）。</translation>
    </message>
    <message>
        <source>The gradient of SparseAdd: the sum&apos;s value gradient given to each operand&apos;s entries at the same index.</source>
        <translation>SparseAdd 的梯度：和的 value 梯度传给各操作数中相同索引处的条目。</translation>
    </message>
    <message>
        <source>The gradient of SparseFillEmptyRows: d_values through reverse_index_map, the rest summed into d_default_value.</source>
        <translation>SparseFillEmptyRows 的梯度：d_values 经由 reverse_index_map 传回，其余部分累加到 d_default_value。</translation>
    </message>
    <message>
        <source>The gradient of SparseSegmentMean: each grad row divided by its segment&apos;s size, summed into rows indices[i].</source>
        <translation>SparseSegmentMean 的梯度：grad 的每一行除以其所在分段的大小，再累加到第 indices[i] 行。</translation>
    </message>
    <message>
        <source>The gradient of SparseSegmentSqrtN: each grad row divided by sqrt of its segment&apos;s size, summed into rows indices[i].</source>
        <translation>SparseSegmentSqrtN 的梯度：grad 的每一行除以其所在分段大小的平方根，再累加到第 indices[i] 行。</translation>
    </message>
    <message>
        <source>The gradient of SparseSlice: backprop_val_grad copied to the input entries the slice kept, zeros elsewhere.</source>
        <translation>SparseSlice 的梯度：backprop_val_grad 复制到切片保留的输入条目，其余位置为零。</translation>
    </message>
    <message>
        <source>The gradient of the forward op&apos;s output.</source>
        <translation>前向 op 输出的梯度。</translation>
    </message>
    <message>
        <source>The list cut to size elements, or grown with elements not set yet.</source>
        <translation>截断为 size 个元素的列表，或以尚未设置的元素扩展后的列表。</translation>
    </message>
    <message>
        <source>The list with item at index; with resize_if_index_out_of_bounds an index past the end grows the list first.</source>
        <translation>index 处为 item 的列表；若设置了 resize_if_index_out_of_bounds，超出末尾的 index 会先扩展列表。</translation>
    </message>
    <message>
        <source>The list with row i of tensor at indices[i], grown when an index is past its end.</source>
        <translation>indices[i] 处为 tensor 第 i 行的列表；索引超出末尾时会扩展列表。</translation>
    </message>
    <message>
        <source>The list with tensor appended.</source>
        <translation>追加了 tensor 的列表。</translation>
    </message>
    <message>
        <source>The list without its last element, and that element (zeros of element_shape when it was never set).</source>
        <translation>去掉最后一个元素的列表，以及该元素（若从未设置过，则为 element_shape 形状的零）。</translation>
    </message>
    <message>
        <source>The marker replaced by an input (Python&apos;s tf.strings.format passes &quot;{}&quot;).</source>
        <translation>被输入替换的标记（Python 的 tf.strings.format 传入 &quot;{}&quot;）。</translation>
    </message>
    <message>
        <source>The number of elements of the list.</source>
        <translation>列表的元素个数。</translation>
    </message>
    <message>
        <source>The number of entries of a table.</source>
        <translation>表的条目数。</translation>
    </message>
    <message>
        <source>The replacement: \0 is the whole match, \1 to \9 the capture groups, \\ a backslash.</source>
        <translation>替换内容：\0 表示整个匹配，\1 到 \9 表示捕获组，\\ 表示反斜杠。</translation>
    </message>
    <message>
        <source>The rows to combine.</source>
        <translation>要合并的行。</translation>
    </message>
    <message>
        <source>The share of full buckets (in (0, 1)) above which the table doubles.</source>
        <translation>已满桶所占比例（在 (0, 1) 内），超过该值时表的容量翻倍。</translation>
    </message>
    <message>
        <source>The starting number of buckets, a power of 2 of at least 4.</source>
        <translation>初始桶数，为不小于 4 的 2 的幂。</translation>
    </message>
    <message>
        <source>The text of each element, in the input&apos;s shape; complex numbers as &quot;(real,imag)&quot;.</source>
        <translation>每个元素的文本，形状与输入相同；复数表示为 &quot;(real,imag)&quot;。</translation>
    </message>
    <message>
        <source>The text; each occurrence of `placeholder` takes the next input.</source>
        <translation>文本；每次出现的 `placeholder` 依次由下一个输入替换。</translation>
    </message>
    <message>
        <source>The two 64-bit words of the 128-bit SipHash key (exactly two values).</source>
        <translation>128 位 SipHash 密钥的两个 64 位字（恰好两个值）。</translation>
    </message>
    <message>
        <source>True where the pattern matches the entire string (not just a part).</source>
        <translation>模式与整个字符串（而不仅是其中一部分）匹配处为 True。</translation>
    </message>
    <message>
        <source>Use adjoint(A) (transpose, conjugated when complex).</source>
        <translation>使用 adjoint(A)（转置，复数时取共轭）。</translation>
    </message>
    <message>
        <source>Use adjoint(B).</source>
        <translation>使用 adjoint(B)。</translation>
    </message>
    <message>
        <source>Vector of the matching paths, every pattern&apos;s together, sorted; empty when none matches (Dataset.list_files and string_input_producer fail on that).</source>
        <translation>匹配路径的向量，所有模式的结果合并在一起并排序；无匹配时为空（Dataset.list_files 和 string_input_producer 会因此失败）。</translation>
    </message>
    <message>
        <source>Without a shared_name, share the table under the node&apos;s name.</source>
        <translation>若未指定 shared_name，则以节点名称共享该表。</translation>
    </message>
    <message>
        <source>Without the key an adversary cannot choose strings that fall into one bucket; it costs about four times the fast hash.</source>
        <translation>没有密钥，攻击者就无法构造落入同一桶的字符串；其开销约为快速哈希的四倍。</translation>
    </message>
    <message>
        <source>Writes every number or bool of a tensor as text, numbers as C&apos;s printf writes them (bools as &quot;true&quot; and &quot;false&quot;).</source>
        <translation>将张量中的每个数值或布尔值写为文本，数值的格式与 C 的 printf 相同（布尔值写为 &quot;true&quot; 和 &quot;false&quot;）。</translation>
    </message>
    <message>
        <source>key_index and value_index pick a column of the line split at `delimiter` (from 0), -1 the line number (int64, from 0) or -2 the whole line. A positive vocab_size reads that many lines (the file must have them); -1 reads every line. A table already initialized is left as it is.</source>
        <translation>key_index 和 value_index 选取按 `delimiter` 拆分后的行中的某一列（从 0 开始），-1 表示行号（int64，从 0 开始），-2 表示整行。vocab_size 为正数时读取相应行数（文件必须有足够的行）；为 -1 时读取所有行。已初始化的表保持不变。</translation>
    </message>
    <message>
        <source>num_segments rows; rows of no segment are zeros.</source>
        <translation>num_segments 行；不属于任何分段的行为零。</translation>
    </message>
    <message>
        <source>segment_ids[-1] + 1 rows; rows of no segment are zeros.</source>
        <translation>segment_ids[-1] + 1 行；不属于任何分段的行为零。</translation>
    </message>
    <message>
        <source>Every class in [0, num_sampled) as the sampled candidates, each with expected count 1.</source>
        <translation>[0, num_sampled) 中的每个类别都作为采样候选，每个的期望次数为 1。</translation>
    </message>
    <message>
        <source>The positions of sampled candidates that match a row&apos;s true classes (accidental hits), with weight -FLT_MAX.</source>
        <translation>与某行真实类别相同的采样候选（意外命中）的位置，权重为 -FLT_MAX。</translation>
    </message>
    <message>
        <source>num_sampled classes drawn from the log-uniform (Zipfian) distribution over [0, range_max), with the expected count of each true and sampled class.</source>
        <translation>从 [0, range_max) 上的对数均匀（Zipf）分布中抽取 num_sampled 个类别，并给出每个真实类别和采样类别的期望次数。</translation>
    </message>
    <message>
        <source>num_sampled classes drawn uniformly from [0, range_max), with the expected count of each true and sampled class.</source>
        <translation>从 [0, range_max) 中均匀抽取 num_sampled 个类别，并给出每个真实类别和采样类别的期望次数。</translation>
    </message>
    <message>
        <source>Gradient of Resampler with respect to its data and its warp.</source>
        <translation>Resampler 关于其 data 和 warp 的梯度。</translation>
    </message>
    <message>
        <source>Samples data [batch, height, width, channels] at the (x, y) points of warp [batch, ..., 2] by bilinear interpolation, zero outside the image.</source>
        <translation>在 warp [batch, ..., 2] 给出的 (x, y) 点上对 data [batch, height, width, channels] 做双线性插值采样，图像之外为零。</translation>
    </message>
    <message>
        <source>The sampling points: x (along the width) then y (along the height), in pixels.</source>
        <translation>采样点：先 x（沿宽度）后 y（沿高度），以像素为单位。</translation>
    </message>
    <message>
        <source>warp&apos;s shape without its last dimension, then the channels.</source>
        <translation>warp 的形状去掉最后一维，再加上通道数。</translation>
    </message>
</context>
<context>
    <name>tstudio::profiler::ProfilerView</name>
    <message>
        <source>There is no trace to export.</source>
        <translation>没有可导出的跟踪。</translation>
    </message>
    <message>
        <source>Export Chrome Trace</source>
        <translation>导出 Chrome 跟踪</translation>
    </message>
    <message>
        <source>Chrome trace (*.json)</source>
        <translation>Chrome 跟踪 (*.json)</translation>
    </message>
    <message>
        <source>Could not export the trace: %1</source>
        <translation>无法导出跟踪：%1</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>No trace</source>
        <translation>没有跟踪</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n step(s)</source>
        <translation>
            <numerusform>%1：%n 个步骤</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 op executions on %n device(s)</source>
        <translation>
            <numerusform>%n 个设备上的 %1 次操作执行</numerusform>
        </translation>
    </message>
    <message>
        <source>read in %1 ms</source>
        <translation>读取用时 %1 毫秒</translation>
    </message>
    <message>
        <source>no graph: parameters are not counted</source>
        <translation>没有图：不统计参数</translation>
    </message>
    <message>
        <source>Export Chrome Trace…</source>
        <translation>导出 Chrome 跟踪…</translation>
    </message>
    <message>
        <source>Save the trace as Chrome trace JSON in TensorFlow&apos;s timeline layout (opens in Perfetto and chrome://tracing)</source>
        <translation>将跟踪按 TensorFlow 时间线的布局保存为 Chrome 跟踪 JSON（可在 Perfetto 和 chrome://tracing 中打开）</translation>
    </message>
    <message>
        <source>Open a trace with File ▸ Open Profile Trace… (a Chrome trace, a RunMetadata .pb or an event file), or press Profile in the Training panel while a project trains: the traced step opens here as a timeline and op tables.</source>
        <translation>使用“文件 ▸ 打开性能跟踪…”打开跟踪（Chrome 跟踪、RunMetadata .pb 或事件文件），或在项目训练时按训练面板中的“性能分析”：被跟踪的步骤会在此处以时间线和操作表格的形式打开。</translation>
    </message>
</context>
<context>
    <name>tstudio::profiler::tables::ProfileTableModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Some executions have unknown shapes; their float operations are not counted.</source>
        <translation>部分执行的形状未知；不统计它们的浮点运算。</translation>
    </message>
    <message>
        <source>total %1, self %2</source>
        <translation>总计 %1，自身 %2</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>操作类型</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>作用域</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行次数</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Self time</source>
        <translation>自身时间</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Accelerator</source>
        <translation>加速器</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Requested</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>残留</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Float ops</source>
        <translation>浮点运算</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 纳秒</translation>
    </message>
    <message>
        <source>%1 us</source>
        <translation>%1 微秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 KB</source>
        <translation>%1 KB</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 k</source>
        <translation>%1 k</translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation>%1 M</translation>
    </message>
    <message>
        <source>%1 G</source>
        <translation>%1 G</translation>
    </message>
    <message>
        <source>%1 T</source>
        <translation>%1 T</translation>
    </message>
</context>
<context>
    <name>tstudio::profiler::tables::ProfileTablesView</name>
    <message numerus="yes">
        <source>Building the tables of %n event(s)…</source>
        <translation>
            <numerusform>正在为 %n 个事件生成表格…</numerusform>
        </translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Information</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1</source>
        <translation>无效的正则表达式：%1</translation>
    </message>
    <message>
        <source>Expected a time in microseconds</source>
        <translation>应为以微秒为单位的时间</translation>
    </message>
    <message>
        <source>Expected a number of bytes</source>
        <translation>应为字节数</translation>
    </message>
    <message>
        <source>Expected a number of float operations</source>
        <translation>应为浮点运算次数</translation>
    </message>
    <message>
        <source>No trace</source>
        <translation>没有跟踪</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message numerus="yes">
        <source>Averaged over %n step(s)</source>
        <translation>
            <numerusform>在 %n 个步骤上取平均</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n event(s)</source>
        <translation>
            <numerusform>%n 个事件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 float operations, %2 parameters</source>
        <translation>%1 次浮点运算，%2 个参数</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) with unknown shapes (float ops marked *)</source>
        <translation>
            <numerusform>%n 个节点的形状未知（浮点运算标记为 *）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 nodes shown</source>
        <translation>显示 %2 个节点中的 %1 个</translation>
    </message>
    <message>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Filter names (regular expression)</source>
        <translation>过滤名称（正则表达式）</translation>
    </message>
    <message>
        <source>Min time (us):</source>
        <translation>最短时间（微秒）：</translation>
    </message>
    <message>
        <source>Min bytes:</source>
        <translation>最少字节：</translation>
    </message>
    <message>
        <source>Min float ops:</source>
        <translation>最少浮点运算：</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the rows of this tab, as filtered and sorted, as CSV</source>
        <translation>将此标签页中经过过滤和排序的行保存为 CSV</translation>
    </message>
    <message>
        <source>Op types</source>
        <translation>操作类型</translation>
    </message>
    <message>
        <source>Name scopes</source>
        <translation>名称作用域</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Advice</source>
        <translation>建议</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Hide names (regular expression)</source>
        <translation>隐藏名称（正则表达式）</translation>
    </message>
    <message>
        <source>Rows whose whole name matches are hidden; their rows below move up a level (tfprof&apos;s hide_name_regexes)</source>
        <translation>整个名称匹配的行被隐藏；其下的行上移一级（tfprof 的 hide_name_regexes）</translation>
    </message>
    <message>
        <source>Depth:</source>
        <translation>深度：</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Scope levels shown below the top (0: the top level only; tfprof&apos;s max_depth)</source>
        <translation>顶层之下显示的作用域层数（0：只显示顶层；tfprof 的 max_depth）</translation>
    </message>
    <message>
        <source>tfprof</source>
        <translation>tfprof</translation>
    </message>
</context>
<context>
    <name>tstudio::profiler::tables::TfprofViewTab</name>
    <message>
        <source>No profile is shown.</source>
        <translation>未显示任何性能剖析。</translation>
    </message>
    <message>
        <source>Export pprof Profile</source>
        <translation>导出 pprof 性能剖析</translation>
    </message>
    <message>
        <source>pprof profiles (*.pb.gz)</source>
        <translation>pprof 性能剖析 (*.pb.gz)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Max depth:</source>
        <translation>最大深度：</translation>
    </message>
    <message>
        <source>Nodes at most this many levels below the root (max_depth)</source>
        <translation>只显示根以下至多这么多层的节点 (max_depth)</translation>
    </message>
    <message>
        <source>Order by:</source>
        <translation>排序方式：</translation>
    </message>
    <message>
        <source>How siblings are ordered; all but name largest first (order_by)</source>
        <translation>同级节点的排序方式；除 name 外均为从大到小 (order_by)</translation>
    </message>
    <message>
        <source>Select:</source>
        <translation>显示列：</translation>
    </message>
    <message>
        <source>The columns shown (select)</source>
        <translation>显示的列 (select)</translation>
    </message>
    <message>
        <source>Account types:</source>
        <translation>计入的类型：</translation>
    </message>
    <message>
        <source>Only nodes whose op type matches are counted, comma-separated regexes (account_type_regexes)</source>
        <translation>只计入操作类型匹配的节点，以逗号分隔的正则表达式 (account_type_regexes)</translation>
    </message>
    <message>
        <source>Start names:</source>
        <translation>起始名称：</translation>
    </message>
    <message>
        <source>Show from the first nodes that match down each branch (start_name_regexes)</source>
        <translation>从每个分支上第一个匹配的节点开始显示 (start_name_regexes)</translation>
    </message>
    <message>
        <source>Trim names:</source>
        <translation>截断名称：</translation>
    </message>
    <message>
        <source>What lies below matching nodes is not shown (trim_name_regexes)</source>
        <translation>匹配节点以下的内容不显示 (trim_name_regexes)</translation>
    </message>
    <message>
        <source>Show names:</source>
        <translation>显示名称：</translation>
    </message>
    <message>
        <source>Only matching nodes are shown (show_name_regexes)</source>
        <translation>只显示匹配的节点 (show_name_regexes)</translation>
    </message>
    <message>
        <source>Hide names:</source>
        <translation>隐藏名称：</translation>
    </message>
    <message>
        <source>Matching nodes are hidden; their shown children move up (hide_name_regexes)</source>
        <translation>隐藏匹配的节点；其显示的子节点上移一层 (hide_name_regexes)</translation>
    </message>
    <message>
        <source>Minimums (nodes below any are not shown)</source>
        <translation>最小值（低于任一项的节点不显示）</translation>
    </message>
    <message>
        <source>tfprof&apos;s %1</source>
        <translation>tfprof 的 %1</translation>
    </message>
    <message>
        <source>Totals count the shown nodes only</source>
        <translation>合计只计入显示的节点</translation>
    </message>
    <message>
        <source>account_displayed_op_only</source>
        <translation>account_displayed_op_only</translation>
    </message>
    <message>
        <source>Export pprof…</source>
        <translation>导出 pprof…</translation>
    </message>
    <message>
        <source>Save the scope tree as a pprof profile (go tool pprof reads it), carrying the first selected quantity</source>
        <translation>将作用域树保存为 pprof 性能剖析（go tool pprof 可读取），带第一个选中的量</translation>
    </message>
</context>
<context>
    <name>tstudio::profiler::timeline::TimelineCanvas</name>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2&lt;br&gt;%3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>(no device)</source>
        <translation>（无设备）</translation>
    </message>
    <message>
        <source>Memory %1</source>
        <translation>内存 %1</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>iteration %1 of %2</source>
        <translation>帧 %2 的第 %1 次迭代</translation>
    </message>
    <message>
        <source>(iteration %1)</source>
        <translation>（第 %1 次迭代）</translation>
    </message>
</context>
<context>
    <name>tstudio::profiler::timeline::TimelineDetails</name>
    <message>
        <source>Click an op to see its details; drag over lanes to total the ops in a box; W/S zoom, A/D pan, 1-4 pick a tool.</source>
        <translation>单击操作查看其详细信息；在通道上拖出方框以汇总其中的操作；W/S 缩放，A/D 平移，1-4 选择工具。</translation>
    </message>
    <message>
        <source>No trace.</source>
        <translation>没有跟踪。</translation>
    </message>
    <message>
        <source>(unknown node)</source>
        <translation>（未知节点）</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>(no device)</source>
        <translation>（无设备）</translation>
    </message>
    <message>
        <source>Lane</source>
        <translation>通道</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>%1 after the step&apos;s start</source>
        <translation>步骤开始后 %1</translation>
    </message>
    <message>
        <source>%1 after the trace&apos;s start</source>
        <translation>跟踪开始后 %1</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>持续时间</translation>
    </message>
    <message>
        <source>Output bytes</source>
        <translation>输出字节</translation>
    </message>
    <message>
        <source>Requested bytes</source>
        <translation>请求字节</translation>
    </message>
    <message>
        <source>Peak bytes</source>
        <translation>峰值字节</translation>
    </message>
    <message>
        <source>Residual bytes</source>
        <translation>残留字节</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Slot</source>
        <translation>槽位</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source> (control)</source>
        <translation>（控制）</translation>
    </message>
    <message>
        <source>ended %1 before</source>
        <translation>%1 之前结束</translation>
    </message>
    <message>
        <source>started %1 after</source>
        <translation>%1 之后开始</translation>
    </message>
    <message>
        <source>not in the trace</source>
        <translation>不在跟踪中</translation>
    </message>
    <message>
        <source>did not run in this step</source>
        <translation>在此步骤中未运行</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Consumers</source>
        <translation>使用者</translation>
    </message>
    <message>
        <source>Show in graph</source>
        <translation>在图中显示</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Total duration</source>
        <translation>总持续时间</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>实际时间</translation>
    </message>
    <message>
        <source>Op type</source>
        <translation>操作类型</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Step %1 (A) and step %2 (B)</source>
        <translation>步骤 %1（A）与步骤 %2（B）</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Loop frame</source>
        <translation>循环帧</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
</context>
<context>
    <name>tstudio::profiler::timeline::TimelineView</name>
    <message>
        <source>Select</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Zoom</source>
        <translation>缩放</translation>
    </message>
    <message>
        <source>Timing</source>
        <translation>计时</translation>
    </message>
    <message>
        <source>Select ops; drag a box to total them (1)</source>
        <translation>选择操作；拖出方框以汇总它们 (1)</translation>
    </message>
    <message>
        <source>Drag to pan (2)</source>
        <translation>拖动以平移 (2)</translation>
    </message>
    <message>
        <source>Drag up or down to zoom (3)</source>
        <translation>上下拖动以缩放 (3)</translation>
    </message>
    <message>
        <source>Drag to measure a time span (4)</source>
        <translation>拖动以测量时间跨度 (4)</translation>
    </message>
    <message>
        <source>Step:</source>
        <translation>步骤：</translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation>比较对象：</translation>
    </message>
    <message>
        <source>Find node or op (Enter: next, Shift+Enter: previous)</source>
        <translation>查找节点或操作（Enter：下一个，Shift+Enter：上一个）</translation>
    </message>
    <message>
        <source>Regular expression</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>上一个</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一个</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Show everything (0)</source>
        <translation>显示全部 (0)</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>Step %1 · %2</source>
        <translation>步骤 %1 · %2</translation>
    </message>
    <message>
        <source>All steps</source>
        <translation>所有步骤</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Invalid pattern: %1</source>
        <translation>无效的模式：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>Show in graph</source>
        <translation>在图中显示</translation>
    </message>
    <message>
        <source>Frame selection</source>
        <translation>缩放到选中项</translation>
    </message>
</context>
<context>
    <name>tstudio::records::FeatureStatisticsTree</name>
    <message>
        <source>bytes</source>
        <translation>bytes</translation>
    </message>
    <message>
        <source>float</source>
        <translation>float</translation>
    </message>
    <message>
        <source>int64</source>
        <translation>int64</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>特征</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Records</source>
        <translation>记录数</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>值数</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Records that have the feature; for a value, the times it occurs</source>
        <translation>含有该特征的记录数；对于某个值，则为其出现的次数</translation>
    </message>
    <message>
        <source>Values per record (fewest – most); for a value, its share</source>
        <translation>每条记录的值个数（最少 – 最多）；对于某个值，则为其所占比例</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 images: %2</source>
        <translation>%1 图像：%2</translation>
    </message>
    <message>
        <source>%1 NaN or infinite</source>
        <translation>%1 个 NaN 或无穷大</translation>
    </message>
    <message>
        <source>another kind in %1 records</source>
        <translation>在 %1 条记录中为其他类型</translation>
    </message>
    <message>
        <source>damaged in %1 records</source>
        <translation>在 %1 条记录中已损坏</translation>
    </message>
    <message>
        <source>more than %1 distinct values</source>
        <translation>超过 %1 个不同的值</translation>
    </message>
    <message>
        <source>always %1</source>
        <translation>恒为 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n distinct value(s)</source>
        <translation>
            <numerusform>%n 个不同的值</numerusform>
        </translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
</context>
<context>
    <name>tstudio::records::RecordDetailTree</name>
    <message>
        <source>bytes</source>
        <translation>bytes</translation>
    </message>
    <message>
        <source>float</source>
        <translation>float</translation>
    </message>
    <message>
        <source>int64</source>
        <translation>int64</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>not an image</source>
        <translation>不是图像</translation>
    </message>
    <message>
        <source>cannot decode the image</source>
        <translation>无法解码该图像</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>特征</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>值数</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>(no features)</source>
        <translation>（无特征）</translation>
    </message>
    <message>
        <source>an empty tf.train.Example</source>
        <translation>空的 tf.train.Example</translation>
    </message>
    <message>
        <source>damaged: %1</source>
        <translation>已损坏：%1</translation>
    </message>
    <message>
        <source>raw pixels</source>
        <translation>原始像素</translation>
    </message>
    <message>
        <source>%1 that cannot be decoded: %2</source>
        <translation>无法解码的 %1：%2</translation>
    </message>
    <message>
        <source>%1, %2 × %3 × %4</source>
        <translation>%1，%2 × %3 × %4</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Not a tf.train.Example: %1</source>
        <translation>不是 tf.train.Example：%1</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Hex</source>
        <translation>十六进制</translation>
    </message>
    <message>
        <source>first %1 bytes</source>
        <translation>前 %1 字节</translation>
    </message>
</context>
<context>
    <name>tstudio::records::RecordTableModel</name>
    <message>
        <source>damaged</source>
        <translation>已损坏</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1: too large to summarise here</source>
        <translation>%1：过大，无法在此概述</translation>
    </message>
    <message>
        <source>cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>not an Example: %1</source>
        <translation>不是 Example：%1</translation>
    </message>
    <message>
        <source>Example without features</source>
        <translation>没有特征的 Example</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>特征</translation>
    </message>
</context>
<context>
    <name>tstudio::records::RecordViewer</name>
    <message>
        <source>&amp;Go to record:</source>
        <translation>转到记录(&amp;G)：</translation>
    </message>
    <message>
        <source>Go</source>
        <translation>转到</translation>
    </message>
    <message>
        <source>Record number, from 0. The file is not read up to it: only the record headers before it are.</source>
        <translation>记录编号，从 0 开始。不会读取该记录之前的整个文件，只读取它之前各记录的头部。</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>特征</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message numerus="yes">
        <source>The file is damaged after record %1; the %n record(s) before it are shown.
%2</source>
        <translation>
            <numerusform>文件在记录 %1 之后已损坏；显示损坏处之前的 %n 条记录。
%2</numerusform>
        </translation>
    </message>
    <message>
        <source>No record could be read.
%1</source>
        <translation>未能读取任何记录。
%1</translation>
    </message>
    <message numerus="yes">
        <source>Over the first %n record(s) of the file</source>
        <translation>
            <numerusform>基于文件的前 %n 条记录</numerusform>
        </translation>
    </message>
    <message>
        <source> (%1 of them are not tf.train.Example records)</source>
        <translation> （其中 %1 条不是 tf.train.Example 记录）</translation>
    </message>
    <message numerus="yes">
        <source>There is no record %1: the file has %n record(s).</source>
        <translation>
            <numerusform>没有记录 %1：文件共有 %n 条记录。</numerusform>
        </translation>
    </message>
    <message>
        <source>Looking for record %1…</source>
        <translation>正在查找记录 %1…</translation>
    </message>
    <message>
        <source>the record holds %1; records over 512 MB are not shown</source>
        <translation>该记录大小为 %1；超过 512 MB 的记录不予显示</translation>
    </message>
    <message>
        <source>Cannot open the file</source>
        <translation>无法打开该文件</translation>
    </message>
    <message>
        <source>Indexing… %1 records so far</source>
        <translation>正在建立索引… 目前已有 %1 条记录</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s)</source>
        <translation>
            <numerusform>%n 条记录</numerusform>
        </translation>
    </message>
    <message>
        <source>%1-compressed: read from the start, so jumps take longer</source>
        <translation>%1 压缩：需从头读取，因此跳转较慢</translation>
    </message>
    <message>
        <source>This file holds no records</source>
        <translation>此文件不含任何记录</translation>
    </message>
    <message>
        <source>No records file</source>
        <translation>没有记录文件</translation>
    </message>
    <message>
        <source>%1 is a TFRecord file with nothing in it yet; a writer that is still running may add records later: open it again then.</source>
        <translation>%1 是一个尚无内容的 TFRecord 文件；仍在运行的写入程序稍后可能会添加记录：届时请重新打开它。</translation>
    </message>
    <message>
        <source>Open a TFRecord file (File ▸ Open File…) to page through its records, see each tf.train.Example&apos;s features and the statistics of every feature.</source>
        <translation>打开 TFRecord 文件（文件 ▸ 打开文件…）即可逐条浏览其记录，查看每个 tf.train.Example 的特征以及每个特征的统计信息。</translation>
    </message>
</context>
<context>
    <name>tstudio::training_panel::DataFoldersSection</name>
    <message>
        <source>Source %1 folder</source>
        <translation>数据源 %1 的文件夹</translation>
    </message>
    <message>
        <source>Source %1 folder (%2)</source>
        <translation>数据源 %1 的文件夹（%2）</translation>
    </message>
    <message>
        <source>Eval source %1 folder</source>
        <translation>评估数据源 %1 的文件夹</translation>
    </message>
    <message>
        <source>Eval source %1 folder (%2)</source>
        <translation>评估数据源 %1 的文件夹（%2）</translation>
    </message>
    <message>
        <source>%1: choose a folder (Browse…)</source>
        <translation>%1：请选择文件夹（浏览…）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Empty: the Data folder</source>
        <translation>留空：使用数据文件夹</translation>
    </message>
    <message>
        <source>A folder with one subfolder of images per class</source>
        <translation>一个文件夹，每个类别一个图像子文件夹</translation>
    </message>
    <message>
        <source>%1 (%2 in the project file); a relative path is read from the Data folder, else from the project file&apos;s folder</source>
        <translation>%1（项目文件中为 %2）；相对路径从数据文件夹读取，未设置数据文件夹时从项目文件所在的文件夹读取</translation>
    </message>
</context>
<context>
    <name>tstudio::training_panel::DistributedDialog</name>
    <message>
        <source>Open MPI Hostfile</source>
        <translation>Open MPI 主机文件</translation>
    </message>
    <message>
        <source>Log Directory</source>
        <translation>日志目录</translation>
    </message>
    <message>
        <source>Run on Several Processes</source>
        <translation>在多个进程上运行</translation>
    </message>
    <message>
        <source>Processes:</source>
        <translation>进程数：</translation>
    </message>
    <message>
        <source>The number of ranks (mpirun -np)</source>
        <translation>rank 的数量（mpirun -np）</translation>
    </message>
    <message>
        <source>Where:</source>
        <translation>运行位置：</translation>
    </message>
    <message>
        <source>This machine (more processes than cores allowed)</source>
        <translation>本机（允许进程数多于核心数）</translation>
    </message>
    <message>
        <source>The hosts of an Open MPI hostfile:</source>
        <translation>Open MPI 主机文件中的主机：</translation>
    </message>
    <message>
        <source>A file of lines &quot;host slots=N&quot;</source>
        <translation>每行为 &quot;host slots=N&quot; 的文件</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Scale the learning rate by the number of processes</source>
        <translation>按进程数放大学习率</translation>
    </message>
    <message>
        <source>The effective batch is N times the project&apos;s batch size; a learning rate N times larger often keeps the same progress per example (--scale-lr)</source>
        <translation>实际批量是项目批量大小的 N 倍；将学习率放大 N 倍通常能保持每个样本的训练进度不变（--scale-lr）</translation>
    </message>
    <message>
        <source>Log directory:</source>
        <translation>日志目录：</translation>
    </message>
    <message>
        <source>Where rank 0 writes checkpoints and event files</source>
        <translation>rank 0 写入检查点和事件文件的位置</translation>
    </message>
    <message>
        <source>Command line:</source>
        <translation>命令行：</translation>
    </message>
    <message>
        <source>Ranks 1 and up write their event files to worker_1, worker_2, … in the log directory. With a hostfile, tstudio, the project and the log directory must be at the same paths on every host.</source>
        <translation>rank 1 及以上的进程把事件文件写入日志目录下的 worker_1、worker_2 等文件夹。使用主机文件时，tstudio、项目和日志目录在每台主机上都必须位于相同的路径。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Trains the project with Open MPI: every process trains on its own batches of the project&apos;s batch size, their gradients averaged at each step (synchronous) or applied by parameter servers as they come (asynchronous). Rank 0 writes the checkpoints and event files, and the dashboard follows them.</source>
        <translation>使用 Open MPI 训练项目：每个进程按项目的批大小训练自己的批次，其梯度在每一步取平均（同步），或由参数服务器在到达时应用（异步）。0 号进程写入检查点和事件文件，仪表板跟随显示。</translation>
    </message>
    <message>
        <source>Replication:</source>
        <translation>复制方式：</translation>
    </message>
    <message>
        <source>Synchronous: gradients averaged at each step (Horovod)</source>
        <translation>同步：每一步对梯度取平均（Horovod）</translation>
    </message>
    <message>
        <source>Asynchronous: parameter servers; workers do not wait</source>
        <translation>异步：参数服务器；工作进程互不等待</translation>
    </message>
    <message>
        <source>The project&apos;s distributed.replication. Asynchronous is TensorFlow&apos;s between-graph replication: the last processes hold the variables and apply each worker&apos;s gradients as they come; the staleness of each update is logged</source>
        <translation>项目的 distributed.replication。异步即 TensorFlow 的图间复制：最后几个进程保存变量，并在每个工作进程的梯度到达时应用；每次更新的陈旧度会记录在日志中</translation>
    </message>
    <message>
        <source>Parameter servers:</source>
        <translation>参数服务器：</translation>
    </message>
    <message>
        <source>How many of the processes hold the variables (the project&apos;s distributed.ps_tasks); the others are workers</source>
        <translation>多少个进程保存变量（项目的 distributed.ps_tasks）；其余为工作进程</translation>
    </message>
</context>
<context>
    <name>tstudio::training_panel::EvaluationSection</name>
    <message>
        <source>Evaluate on the Folder</source>
        <translation>用于评估的文件夹</translation>
    </message>
    <message>
        <source>Evaluate on the File</source>
        <translation>用于评估的文件</translation>
    </message>
    <message>
        <source>Evaluate on the Files</source>
        <translation>用于评估的多个文件</translation>
    </message>
    <message>
        <source>Evaluation: enter the seed of the points to evaluate on</source>
        <translation>评估：请输入用于评估的数据点的种子</translation>
    </message>
    <message>
        <source>Evaluation: choose the folder to evaluate on (Browse…)</source>
        <translation>评估：请选择用于评估的文件夹（浏览…）</translation>
    </message>
    <message>
        <source>Evaluation: choose the file to evaluate on (Browse…)</source>
        <translation>评估：请选择用于评估的文件（浏览…）</translation>
    </message>
    <message>
        <source>Evaluation: choose the files to evaluate on (Browse…)</source>
        <translation>评估：请选择用于评估的多个文件（浏览…）</translation>
    </message>
    <message>
        <source>Evaluation: %1</source>
        <translation>评估：%1</translation>
    </message>
    <message>
        <source>Evaluation: tick at least one metric</source>
        <translation>评估：请至少勾选一个指标</translation>
    </message>
    <message>
        <source>Evaluate while training</source>
        <translation>训练时进行评估</translation>
    </message>
    <message>
        <source>As tf.estimator.train_and_evaluate: the metrics on other data every N steps, written to the log directory&apos;s eval folder (the project&apos;s &quot;eval&quot; section)</source>
        <translation>与 tf.estimator.train_and_evaluate 相同：每 N 步在其他数据上计算指标，写入日志目录的 eval 文件夹（项目的“eval”部分）</translation>
    </message>
    <message>
        <source>Data:</source>
        <translation>数据：</translation>
    </message>
    <message>
        <source>As in the project file</source>
        <translation>与项目文件中相同</translation>
    </message>
    <message>
        <source>Source %1 (%2)</source>
        <translation>数据源 %1（%2）</translation>
    </message>
    <message>
        <source>Held-out examples</source>
        <translation>留出的样本</translation>
    </message>
    <message>
        <source>Other points (another seed)</source>
        <translation>其他数据点（另一个种子）</translation>
    </message>
    <message>
        <source>Another folder</source>
        <translation>另一个文件夹</translation>
    </message>
    <message>
        <source>Another file</source>
        <translation>另一个文件</translation>
    </message>
    <message>
        <source>Other files</source>
        <translation>其他文件</translation>
    </message>
    <message>
        <source>The training data</source>
        <translation>训练数据</translation>
    </message>
    <message>
        <source>Skip:</source>
        <translation>跳过：</translation>
    </message>
    <message>
        <source>The examples of the source before those the evaluation reads</source>
        <translation>数据源中位于评估所读取样本之前的样本</translation>
    </message>
    <message>
        <source>Take:</source>
        <translation>取用：</translation>
    </message>
    <message>
        <source>the rest</source>
        <translation>其余全部</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Files:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>e.g. ptb.valid.txt (read from the Data folder)</source>
        <translation>例如 ptb.valid.txt（从数据文件夹读取）</translation>
    </message>
    <message>
        <source>Comma-separated; relative paths are read from the Data folder</source>
        <translation>以逗号分隔；相对路径从数据文件夹读取</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Metrics:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>top-k accuracy, k =</source>
        <translation>top-k 准确率，k =</translation>
    </message>
    <message>
        <source>Of the logits %1 against the labels %2 (from the loss)</source>
        <translation>基于 logits %1 与标签 %2（取自损失）</translation>
    </message>
    <message>
        <source>Also kept from the project file: %1</source>
        <translation>同时保留项目文件中的：%1</translation>
    </message>
    <message>
        <source>The project names no loss: add metrics in the project file</source>
        <translation>项目未指定损失：请在项目文件中添加指标</translation>
    </message>
    <message>
        <source>Every:</source>
        <translation>每隔：</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>PR curves per class</source>
        <translation>每个类别的 PR 曲线</translation>
    </message>
</context>
<context>
    <name>tstudio::training_panel::TrainingPanel</name>
    <message>
        <source>Log Directory</source>
        <translation>日志目录</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Train to step:</source>
        <translation>训练到第几步：</translation>
    </message>
    <message>
        <source>Log directory:</source>
        <translation>日志目录：</translation>
    </message>
    <message>
        <source>Where checkpoints and event files go</source>
        <translation>检查点和事件文件的存放位置</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>MNIST folder:</source>
        <translation>MNIST 文件夹：</translation>
    </message>
    <message>
        <source>Continue from the latest checkpoint in the log directory</source>
        <translation>从日志目录中最新的检查点继续</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Train the project with the built-in runner (F5 in the node editor)</source>
        <translation>用内置运行器训练项目（节点编辑器中按 F5）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop after the current step; a final checkpoint is saved</source>
        <translation>在当前步骤之后停止；会保存最后一个检查点</translation>
    </message>
    <message>
        <source>Save checkpoint now</source>
        <translation>立即保存检查点</translation>
    </message>
    <message>
        <source>No project: open a .tsproj or a graph in the node editor</source>
        <translation>没有项目：请打开 .tsproj，或在节点编辑器中打开计算图</translation>
    </message>
    <message>
        <source>Project: %1</source>
        <translation>项目：%1</translation>
    </message>
    <message>
        <source>Not started</source>
        <translation>未开始</translation>
    </message>
    <message>
        <source>There is no project to train: open a .tsproj, or a graph in the node editor.</source>
        <translation>没有可训练的项目：请打开 .tsproj，或在节点编辑器中打开计算图。</translation>
    </message>
    <message>
        <source>Choose a log directory for the checkpoints and event files.</source>
        <translation>请为检查点和事件文件选择日志目录。</translation>
    </message>
    <message>
        <source>%1 already holds checkpoints (latest %2): tick &quot;Continue from the latest checkpoint&quot; or choose another log directory.</source>
        <translation>%1 中已有检查点（最新为 %2）：请勾选“从日志目录中最新的检查点继续”，或选择其他日志目录。</translation>
    </message>
    <message>
        <source>Training; checkpoints and event files go to %1</source>
        <translation>训练中；检查点和事件文件写入 %1</translation>
    </message>
    <message>
        <source>Training %1 from step %2 to %3 in %4</source>
        <translation>正在训练 %1，从第 %2 步到第 %3 步，写入 %4</translation>
    </message>
    <message>
        <source>Saved checkpoint %1</source>
        <translation>已保存检查点 %1</translation>
    </message>
    <message>
        <source>Preparing…</source>
        <translation>准备中…</translation>
    </message>
    <message>
        <source>Building the training graph…</source>
        <translation>正在构建训练图…</translation>
    </message>
    <message>
        <source>Paused at step %1</source>
        <translation>已在第 %1 步暂停</translation>
    </message>
    <message>
        <source>Stopping after the current step…</source>
        <translation>将在当前步骤之后停止…</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>%1 步/秒</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>elapsed %1</source>
        <translation>已用 %1</translation>
    </message>
    <message>
        <source>loss %1</source>
        <translation>损失 %1</translation>
    </message>
    <message>
        <source>Finished at step %1 (%2 steps/s); last checkpoint %3</source>
        <translation>已在第 %1 步完成（%2 步/秒）；最后的检查点为 %3</translation>
    </message>
    <message>
        <source>Show node %1</source>
        <translation>显示节点 %1</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>性能分析</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>调试</translation>
    </message>
    <message>
        <source>Attach the debugger to the next run: breakpoints, stepping through ops and every tensor, in the Debugger tab</source>
        <translation>将调试器附加到下一次运行：在“调试器”标签页中使用断点、逐个操作单步执行并查看每个张量</translation>
    </message>
    <message>
        <source>Stopped in the debugger during step %1; that step was not saved, the last checkpoint is %2</source>
        <translation>在第 %1 步时于调试器中停止；该步未保存，最后的检查点为 %2</translation>
    </message>
    <message>
        <source>%1-images-idx3-ubyte(.gz) and %1-labels-idx1-ubyte(.gz)</source>
        <translation>%1-images-idx3-ubyte(.gz) 和 %1-labels-idx1-ubyte(.gz)</translation>
    </message>
    <message>
        <source>one subfolder of images per class%1</source>
        <translation>每个类别一个图像子文件夹%1</translation>
    </message>
    <message>
        <source>Data Folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>Profile step</source>
        <translation>分析第几步</translation>
    </message>
    <message>
        <source>Trace this global step (FULL_TRACE) while the run goes and open it in the profiler</source>
        <translation>运行到该全局步时跟踪它（FULL_TRACE）并在性能分析器中打开</translation>
    </message>
    <message>
        <source>Data folder:</source>
        <translation>数据文件夹：</translation>
    </message>
    <message>
        <source>Folder with %1</source>
        <translation>包含 %1 的文件夹</translation>
    </message>
    <message>
        <source>; and </source>
        <translation>；以及 </translation>
    </message>
    <message>
        <source>Choose the data folder: the graph&apos;s data sources read their files from it (%1).</source>
        <translation>请选择数据文件夹：图中的数据源从中读取文件（%1）。</translation>
    </message>
    <message>
        <source>Nothing to profile yet: press Start, or arm &quot;Profile step&quot; before it.</source>
        <translation>还没有可分析的内容：请按“开始”，或在开始前勾选“分析第几步”。</translation>
    </message>
    <message>
        <source>Paused at %1 (step %2): step, continue or stop in the Debugger tab</source>
        <translation>已暂停于 %1（第 %2 步）：请在调试器标签页中单步、继续或停止</translation>
    </message>
    <message>
        <source>Check the settings, then press Start.</source>
        <translation>请检查设置，然后按“开始”。</translation>
    </message>
    <message>
        <source>Warm Start From</source>
        <translation>热启动来源</translation>
    </message>
    <message>
        <source>Warm start:</source>
        <translation>热启动：</translation>
    </message>
    <message>
        <source>Initialise variables from this checkpoint or log directory (empty: none)</source>
        <translation>从此检查点或日志目录初始化变量（为空：不使用）</translation>
    </message>
    <message>
        <source>As tf.estimator.WarmStartSettings: when the run starts without a checkpoint of its own, the trainable variables chosen at the right are read from this checkpoint (a prefix such as model.ckpt-100, or a folder: its latest)</source>
        <translation>与 tf.estimator.WarmStartSettings 相同：当运行开始时自身没有检查点，右侧选定的可训练变量将从此检查点读取（如 model.ckpt-100 这样的前缀，或一个文件夹：取其最新的检查点）</translation>
    </message>
    <message>
        <source>Variables: .*</source>
        <translation>变量：.*</translation>
    </message>
    <message>
        <source>A regular expression matched from the start of each trainable variable&apos;s name (vars_to_warm_start); empty: all of them</source>
        <translation>从每个可训练变量名称开头起匹配的正则表达式（vars_to_warm_start）；为空：全部变量</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Eval at step %1: %2</source>
        <translation>第 %1 步评估：%2</translation>
    </message>
    <message>
        <source>best %1 %2 at step %3</source>
        <translation>最佳 %1 %2（第 %3 步）</translation>
    </message>
    <message>
        <source>stopped early: %1</source>
        <translation>提前停止：%1</translation>
    </message>
    <message>
        <source>Stopping the %1 processes…</source>
        <translation>正在停止 %1 个进程…</translation>
    </message>
    <message>
        <source>Run on %1 processes…</source>
        <translation>在 %1 个进程上运行…</translation>
    </message>
    <message>
        <source>Train the project on several processes with Open MPI (mpirun): on this machine or on the hosts of a hostfile</source>
        <translation>用 Open MPI（mpirun）在多个进程上训练项目：在本机或主机文件列出的主机上</translation>
    </message>
    <message>
        <source>mpirun was not found on PATH: install Open MPI (the openmpi-bin package).</source>
        <translation>在 PATH 中找不到 mpirun：请安装 Open MPI（openmpi-bin 软件包）。</translation>
    </message>
    <message>
        <source>Choose the hostfile that lists the hosts and their slots.</source>
        <translation>请选择列出主机及其槽位的主机文件。</translation>
    </message>
    <message>
        <source>The hostfile cannot run %1 processes: %2</source>
        <translation>该主机文件无法运行 %1 个进程：%2</translation>
    </message>
    <message>
        <source>Cannot create the log directory %1</source>
        <translation>无法创建日志目录 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>Step %1 of %2 on %3 processes</source>
        <translation>第 %1 步，共 %2 步，在 %3 个进程上</translation>
    </message>
    <message>
        <source>Running %1 on %2 processes: %3</source>
        <translation>正在 %2 个进程上运行 %1：%3</translation>
    </message>
    <message>
        <source>Starting %1 processes…</source>
        <translation>正在启动 %1 个进程…</translation>
    </message>
    <message>
        <source>Running on %1 processes; rank 0 writes checkpoints and event files to %2</source>
        <translation>正在 %1 个进程上运行；rank 0 将检查点和事件文件写入 %2</translation>
    </message>
    <message>
        <source>Training %1 on %2 processes from step %3 to %4 in %5</source>
        <translation>正在 %2 个进程上训练 %1，从第 %3 步到第 %4 步，输出到 %5</translation>
    </message>
    <message>
        <source>Finished on %1 processes at step %2; rank 0&apos;s checkpoints and event files are in %3</source>
        <translation>已在 %1 个进程上完成，停在第 %2 步；rank 0 的检查点和事件文件位于 %3</translation>
    </message>
    <message>
        <source>Stopped the %1 processes at step %2; no checkpoint was saved</source>
        <translation>已在第 %2 步停止 %1 个进程；未保存检查点</translation>
    </message>
    <message>
        <source>Stopped the %1 processes at step %2; the last checkpoint is %3</source>
        <translation>已在第 %2 步停止 %1 个进程；最新检查点为 %3</translation>
    </message>
    <message>
        <source>mpirun could not be started: %1</source>
        <translation>无法启动 mpirun：%1</translation>
    </message>
    <message>
        <source>Training on %1 processes failed (mpirun exit code %2)</source>
        <translation>在 %1 个进程上训练失败（mpirun 退出码 %2）</translation>
    </message>
    <message>
        <source>rank %1: %2</source>
        <translation>rank %1：%2</translation>
    </message>
    <message>
        <source>GPU present but unusable: %1</source>
        <translation>GPU 存在但无法使用：%1</translation>
    </message>
    <message>
        <source>No project to train</source>
        <translation>没有可训练的项目</translation>
    </message>
    <message>
        <source>Open a .tsproj project, or compose a network in the node editor (File ▸ New Graph): this panel trains the graph of the editor tab in front.</source>
        <translation>打开 .tsproj 项目，或在节点编辑器中构建网络（文件 ▸ 新建计算图）：此面板训练前台编辑器标签页中的计算图。</translation>
    </message>
    <message>
        <source>The tab of %1 was closed: its training stops after the current step</source>
        <translation>%1 的标签页已关闭：其训练将在当前步骤之后停止</translation>
    </message>
    <message>
        <source>Training %1 is under way: one run at a time. Stop it in its tab, or wait for it to finish.</source>
        <translation>正在训练 %1：一次只能进行一个运行。请在其标签页中停止它，或等待其完成。</translation>
    </message>
    <message>
        <source>a closed graph</source>
        <translation>已关闭的计算图</translation>
    </message>
    <message numerus="yes">
        <source>%n variable(s) of the graph missing from it (%1)</source>
        <translation>
            <numerusform>计算图中有 %n 个变量在检查点中缺失（%1）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n variable(s) that are not in the graph (%1)</source>
        <translation>
            <numerusform>%n 个不在计算图中的变量（%1）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n variable(s) of another shape or type (%1: %2 in the graph, %3 in the checkpoint)</source>
        <translation>
            <numerusform>%n 个形状或类型不同的变量（%1：计算图中为 %2，检查点中为 %3）</numerusform>
        </translation>
    </message>
    <message>
        <source>Not continued: the latest checkpoint in %1 (%2) is not of this graph: %3. Untick &quot;Continue from the latest checkpoint&quot; or choose another log directory.</source>
        <translation>未继续：%1 中最新的检查点（%2）不属于此计算图：%3。请取消勾选“从日志目录中最新的检查点继续”，或选择其他日志目录。</translation>
    </message>
    <message>
        <source>accuracy %1</source>
        <translation>准确率 %1</translation>
    </message>
    <message>
        <source>choose fewer processes in this dialog, or give the hosts more slots in the hostfile</source>
        <translation>在此对话框中选择更少的进程，或在主机文件中为主机分配更多槽位</translation>
    </message>
    <message>
        <source>Checking the checkpoint…</source>
        <translation>正在检查检查点…</translation>
    </message>
    <message>
        <source>Checking the project and the hostfile %1…</source>
        <translation>正在检查项目和主机文件 %1…</translation>
    </message>
    <message>
        <source>Checking the project…</source>
        <translation>正在检查项目…</translation>
    </message>
    <message numerus="yes">
        <source>%n parameter server(s) of %1 processes leave no worker: choose more processes or fewer parameter servers.</source>
        <translation>
            <numerusform>%1 个进程中的 %n 个参数服务器没有留下工作进程：请选择更多进程或更少的参数服务器。</numerusform>
        </translation>
    </message>
    <message>
        <source>intra-op threads: %1 (automatic)</source>
        <translation>算子内线程：%1（自动）</translation>
    </message>
    <message>
        <source>Profiling step %1, after a step to warm up, from %2</source>
        <translation>正在从 %2 先训练一步预热，再对第 %1 步进行性能分析</translation>
    </message>
    <message>
        <source>Trace the next step (FULL_TRACE) and open it in the profiler: timeline and op tables. After a run: train two more steps from its last checkpoint and trace the second (the first step of a new session pays one-time costs)</source>
        <translation>跟踪下一个步骤（FULL_TRACE）并在性能分析器中打开：时间线和操作表格。运行结束后：从最后的检查点再训练两步并跟踪第二步（新会话的第一步包含一次性开销）</translation>
    </message>
</context>
</TS>
