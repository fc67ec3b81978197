// Compiled from generated/client/soap.ts by npm run generate; do not edit. source a51f2528778c06115bd3adebba618ef93985504d9308101b852e0dd6e2c9faf0 output 79b8497d089fc85c4789c597680e28af1fac1fabfd9603610e102212d7b0ae4b
import type { CheckStatusRequest, CheckStatusResponse, CreateUserRequest, CreateUserResponse, UpdateUserRequest, UpdateUserResponse, DeleteUserRequest, DeleteUserResponse, QueryUserRequest, QueryUserResponse, DoesUserExistRequest, DoesUserExistResponse, WhiteboardIdRequest, WhiteboardIdResponse, CreateObjectRequest, CreateObjectResponse, DeleteObjectRequest, DeleteObjectResponse, MoveObjectRequest, MoveObjectResponse, ObjectExistsRequest, ObjectExistsResponse, AddPropertyRequest, AddPropertyResponse, UpdatePropertyRequest, UpdatePropertyResponse, DeletePropertyRequest, DeletePropertyResponse, ContextQueryRequest, QueryResponse, ObjectIdQueryRequest, AllWorkspaceQueryRequest, QueryPropertyDefinitionsRequest, QueryPropertyDefinitionsResponse } from '../soap/types.js';
export { SoapFault, XmlSchemaError } from '../soap/runtime.js';
export type * from '../soap/types.js';
export interface CatalogServiceClientOptions {
    /** The service address, e.g. `http://127.0.0.1:8080/catalog`. */
    readonly url: string;
    /** The caller's distinguished name, sent in a `Username` SOAP header. */
    readonly username?: string | undefined;
    /** Bearer token sent as `Authorization: Bearer <token>`. */
    readonly token?: string | undefined;
    /** Extra SOAP header blocks, as XML text. */
    readonly soapHeaders?: readonly string[] | undefined;
    /** Extra HTTP headers. */
    readonly headers?: Readonly<Record<string, string>> | undefined;
    readonly fetch?: typeof globalThis.fetch | undefined;
}
/** A non-SOAP answer (no envelope), with the HTTP status. */
export declare class SoapTransportError extends Error {
    readonly status: number;
    readonly body: string;
    constructor(status: number, body: string);
}
export declare class CatalogServiceClient {
    private readonly options;
    private readonly fetchImpl;
    constructor(options: CatalogServiceClientOptions);
    /** checkStatus: SOAPAction "urn:checkStatus". */
    checkStatus(request: CheckStatusRequest): Promise<CheckStatusResponse>;
    /** createUser: SOAPAction "urn:createUser". */
    createUser(request: CreateUserRequest): Promise<CreateUserResponse>;
    /** updateUser: SOAPAction "urn:updateUser". */
    updateUser(request: UpdateUserRequest): Promise<UpdateUserResponse>;
    /** deleteUser: SOAPAction "urn:deleteUser". */
    deleteUser(request: DeleteUserRequest): Promise<DeleteUserResponse>;
    /** queryUser: SOAPAction "urn:queryUser". */
    queryUser(request: QueryUserRequest): Promise<QueryUserResponse>;
    /** doesUserExist: SOAPAction "urn:doesUserExist". */
    doesUserExist(request: DoesUserExistRequest): Promise<DoesUserExistResponse>;
    /** whiteboardId: SOAPAction "urn:whiteboardId". */
    whiteboardId(request: WhiteboardIdRequest): Promise<WhiteboardIdResponse>;
    /** createObject: SOAPAction "urn:createObject". */
    createObject(request: CreateObjectRequest): Promise<CreateObjectResponse>;
    /** deleteObject: SOAPAction "urn:deleteObject". */
    deleteObject(request: DeleteObjectRequest): Promise<DeleteObjectResponse>;
    /** moveObject: SOAPAction "urn:moveObject". */
    moveObject(request: MoveObjectRequest): Promise<MoveObjectResponse>;
    /** objectExists: SOAPAction "urn:objectExists". */
    objectExists(request: ObjectExistsRequest): Promise<ObjectExistsResponse>;
    /** addProperty: SOAPAction "urn:addProperty". */
    addProperty(request: AddPropertyRequest): Promise<AddPropertyResponse>;
    /** updateProperty: SOAPAction "urn:updateProperty". */
    updateProperty(request: UpdatePropertyRequest): Promise<UpdatePropertyResponse>;
    /** deleteProperty: SOAPAction "urn:deleteProperty". */
    deleteProperty(request: DeletePropertyRequest): Promise<DeletePropertyResponse>;
    /** query: SOAPAction "urn:query". */
    query(request: ContextQueryRequest): Promise<QueryResponse>;
    /** objectIdQuery: SOAPAction "urn:objectIdQuery". */
    objectIdQuery(request: ObjectIdQueryRequest): Promise<QueryResponse>;
    /** allWorkspaceQuery: SOAPAction "urn:allWorkspaceQuery". */
    allWorkspaceQuery(request: AllWorkspaceQueryRequest): Promise<QueryResponse>;
    /** queryPropertyDefinitions: SOAPAction "urn:queryPropertyDefinitions". */
    queryPropertyDefinitions(request: QueryPropertyDefinitionsRequest): Promise<QueryPropertyDefinitionsResponse>;
    private call;
}
