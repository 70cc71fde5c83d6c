
İ
Ú
,/job:localhost/replica:0/task:0/device:CPU:0u
dense/kernelŞ¡É¶Ã£˜ (2
cpu(œ:"	cpuBdense/kernel = VariableV2()Ph“È¯¬âÆÕõpx&€ùU‡
dense/kernel/readì¡É¶Ã£˜ (2
cpu(œ:"	cpuB*dense/kernel/read = Identity(dense/kernel)Ph‘¶°¬âÆÕõpx‡€½k

dense/biasî¡É¶Ã£˜ (2
cpu(œ:"	cpuBdense/bias = VariableV2()PhŸÊ°¬âÆÕõp±x­€¢}
dense/bias/readñ¡É¶Ã£˜ (2
cpu(œ:"	cpuB&dense/bias/read = Identity(dense/bias)Phòİ°¬âÆÕõp¸x¿
€¹
dense/MatMuló¡É¶Ã£˜ (2
cpu`` `(ü:"	``cpuB0dense/MatMul = MatMul(inputs, dense/kernel/read)PhÔï°¬âÆÕõp‘x™3€ª6•
dense/BiasAddû¡É¶Ã£˜ (2
cpu`` `(Ü:"	``cpuB6dense/BiasAdd = BiasAdd(dense/MatMul, dense/bias/read)PhÁ©±¬âÆÕõpõx‡€Û|

dense/Reluş¡É¶Ã£˜ (2
cpu`` `(Ü:"	``cpuB dense/Relu = Relu(dense/BiasAdd)Ph­Ä±¬âÆÕõpáx·€‰w
dense_1/kernel¢É¶Ã£˜ (2
cpu(ü:"	$$cpuBdense_1/kernel = VariableV2()Ph†ß±¬âÆÕõp¿xü€÷
dense_1/kernel/read„¢É¶Ã£˜ (2
cpu(ü:"	$$cpuB.dense_1/kernel/read = Identity(dense_1/kernel)PhŸó±¬âÆÕõpµx’€Àq
dense_1/bias†¢É¶Ã£˜ (2
cpu(ü:"	cpuBdense_1/bias = VariableV2()Ph¾²¬âÆÕõpÛ	x€Ö
dense_1/bias/readˆ¢É¶Ã£˜2
cpu(ü:"	cpuB*dense_1/bias/read = Identity(dense_1/bias)Ph¹•²¬âÆÕõp¯x¡€à˜
dense_1/MatMulŠ¢É¶Ã£˜ (2
cpu`` `(Ü:"	``cpuB8dense_1/MatMul = MatMul(dense/Relu, dense_1/kernel/read)Phª ²¬âÆÕõp³x±€˜